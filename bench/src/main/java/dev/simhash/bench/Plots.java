package dev.simhash.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** PNG plots of the report (XChart, headless). */
final class Plots {

    private static final Color[] COLORS = { new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd) };

    private Plots() {}

    /** p50 (solid) and p99 (dashed) latency against corpus size, one pair of lines per method; log-log. */
    static void latency(Path file, String title, List<LatencyBench.Result> results) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle("documents")
            .yAxisTitle("latency (ms, client side)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        int c = 0;
        boolean any = false;
        for (LatencyBench.Method m : LatencyBench.Method.values()) {
            List<LatencyBench.Result> rs = results.stream().filter(r -> r.method() == m && !Double.isNaN(r.p50())).toList();
            if (rs.isEmpty()) {
                continue;
            }
            double[] x = rs.stream().mapToDouble(LatencyBench.Result::size).toArray();
            XYSeries p50 = chart.addSeries(m.label + " p50", x, rs.stream().mapToDouble(LatencyBench.Result::p50).toArray());
            p50.setLineColor(COLORS[c % COLORS.length]);
            p50.setMarkerColor(COLORS[c % COLORS.length]);
            p50.setMarker(SeriesMarkers.CIRCLE);
            XYSeries p99 = chart.addSeries(m.label + " p99", x, rs.stream().mapToDouble(LatencyBench.Result::p99).toArray());
            p99.setLineColor(COLORS[c % COLORS.length]);
            p99.setMarkerColor(COLORS[c % COLORS.length]);
            p99.setMarker(SeriesMarkers.DIAMOND);
            p99.setLineStyle(SeriesLines.DASH_DASH);
            c++;
            any = true;
        }
        if (any) {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    /** Precision and recall against the distance threshold k. */
    static void quality(Path file, String title, Map<String, QualityBench.Curve> curves) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle("distance threshold k (bits)")
            .yAxisTitle("precision / recall").build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(1.0);
        int c = 0;
        for (Map.Entry<String, QualityBench.Curve> e : curves.entrySet()) {
            List<Double> x = new ArrayList<>();
            List<Double> p = new ArrayList<>();
            List<Double> r = new ArrayList<>();
            for (int k = 0; k <= QualityBench.KMAX; k++) {
                double pk = e.getValue().precision(k);
                x.add((double) k);
                p.add(Double.isNaN(pk) ? 1.0 : pk);
                r.add(e.getValue().recall(k));
            }
            XYSeries ps = chart.addSeries(e.getKey() + " precision", x, p);
            ps.setLineColor(COLORS[c % COLORS.length]);
            ps.setMarkerColor(COLORS[c % COLORS.length]);
            ps.setMarker(SeriesMarkers.CIRCLE);
            XYSeries rs = chart.addSeries(e.getKey() + " recall", x, r);
            rs.setLineColor(COLORS[c % COLORS.length]);
            rs.setMarkerColor(COLORS[c % COLORS.length]);
            rs.setMarker(SeriesMarkers.DIAMOND);
            rs.setLineStyle(SeriesLines.DASH_DASH);
            c++;
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
