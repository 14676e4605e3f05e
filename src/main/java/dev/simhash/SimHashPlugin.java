package dev.simhash;

import dev.simhash.analysis.SimHashTextAnalyzerProvider;
import dev.simhash.analysis.V2FeaturesAnalyzer;
import dev.simhash.analysis.V2FeaturesAnalyzerProvider;
import dev.simhash.analysis.SimHashTokenFilterFactory;
import dev.simhash.analysis.SmartcnStopFilterFactory;
import dev.simhash.analysis.SmartcnTokenizerFactory;
import dev.simhash.calibrate.CalibrateAction;
import dev.simhash.calibrate.RestCalibrateAction;
import dev.simhash.calibrate.TransportCalibrateAction;
import dev.simhash.duplicates.AsyncDuplicatesAction;
import dev.simhash.duplicates.DuplicatesAction;
import dev.simhash.duplicates.DuplicatesStatus;
import dev.simhash.duplicates.ReportDeleteAction;
import dev.simhash.duplicates.ShardBandsAction;
import dev.simhash.duplicates.ReportGetAction;
import dev.simhash.duplicates.ReportStore;
import dev.simhash.duplicates.RestDuplicatesAction;
import dev.simhash.duplicates.RestReportDeleteAction;
import dev.simhash.duplicates.RestReportGetAction;
import dev.simhash.duplicates.TransportAsyncDuplicatesAction;
import dev.simhash.duplicates.TransportDuplicatesAction;
import dev.simhash.duplicates.TransportReportDeleteAction;
import dev.simhash.duplicates.TransportShardBandsAction;
import dev.simhash.duplicates.TransportReportGetAction;
import dev.simhash.fold.FoldAction;
import dev.simhash.fold.RestFoldAction;
import dev.simhash.fold.TransportFoldAction;
import dev.simhash.compat.CompatActionPlugin;
import dev.simhash.compat.CompatIndices;
import dev.simhash.compat.CompatProjectCustom;
import dev.simhash.ingest.DedupProcessor;
import dev.simhash.ingest.RecentDocuments;
import dev.simhash.ingest.SimHashProcessor;
import dev.simhash.mapper.BandFilters;
import dev.simhash.mapper.HexFormat;
import dev.simhash.mapper.SimHashFieldMapper;
import dev.simhash.query.LikedValuesAction;
import dev.simhash.query.SimHashQueryBuilder;
import dev.simhash.query.TransportLikedValuesAction;
import dev.simhash.request.SketchFormatFilter;
import dev.simhash.script.SimHashScriptEngine;
import dev.simhash.weights.DeleteWeightsAction;
import dev.simhash.weights.GetWeightsAction;
import dev.simhash.weights.PutWeightsAction;
import dev.simhash.weights.RestDeleteWeightsAction;
import dev.simhash.weights.RestGetWeightsAction;
import dev.simhash.weights.RestPutWeightsAction;
import dev.simhash.weights.StoreWeightsAction;
import dev.simhash.weights.TransportAdminWeightsFeaturesAction;
import dev.simhash.weights.TransportDeleteWeightsAction;
import dev.simhash.weights.TransportGetWeightsAction;
import dev.simhash.weights.TransportPutWeightsAction;
import dev.simhash.weights.TransportReadWeightsFeaturesAction;
import dev.simhash.weights.TransportStoreWeightsAction;
import dev.simhash.weights.WeightsChanges;
import dev.simhash.weights.WeightsFeaturesAction;
import dev.simhash.weights.WeightsMetadata;
import dev.simhash.weights.WeightsRegistry;
import dev.simhash.weights.WeightsStatus;

import org.apache.lucene.analysis.Analyzer;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.action.support.ActionFilter;
import org.elasticsearch.common.settings.Setting;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.index.IndexModule;
import org.elasticsearch.index.analysis.AnalyzerProvider;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.index.mapper.Mapper;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.ingest.Processor;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.IngestPlugin;
import org.elasticsearch.plugins.MapperPlugin;
import org.elasticsearch.plugins.ScriptPlugin;
import org.elasticsearch.plugins.SearchPlugin;
import org.elasticsearch.rest.RestHandler;
import org.elasticsearch.script.ScriptContext;
import org.elasticsearch.script.ScriptEngine;
import org.elasticsearch.search.DocValueFormat;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.xcontent.NamedXContentRegistry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Entry point of the simhash plugin: wires the components into Elasticsearch and holds no logic. */
public final class SimHashPlugin extends CompatActionPlugin implements AnalysisPlugin, IngestPlugin, MapperPlugin, SearchPlugin,
    ScriptPlugin {

    // the node's feature-weight tables, followed from the cluster state once the node is built
    private final WeightsRegistry weights = new WeightsRegistry();
    // the node's window of documents the dedup processor saw recently (what searches cannot find yet)
    private final RecentDocuments recentDocuments = new RecentDocuments(System::nanoTime);
    // per shard copy, the band values its documents may hold: what a verified query need not look up
    private final BandFilters bandFilters = new BandFilters();

    @Override
    protected Collection<?> components(PluginServices services) {
        CompatProjectCustom.Access access = CompatProjectCustom.Access.of(services);
        weights.start(services.clusterService(), access);
        recentDocuments.useBreaker(services.indicesService().getCircuitBreakerService().getBreaker(CircuitBreaker.REQUEST));
        bandFilters.start(services.clusterService().getSettings(), services.clusterService().getClusterSettings(),
            services.indicesService().getCircuitBreakerService().getBreaker(CircuitBreaker.FIELDDATA), services.threadPool());
        // the records of background reports, injected into the report actions; removes expired ones periodically
        ReportStore reports = new ReportStore(services.client(), services.clusterService(), services.threadPool(),
            CompatIndices.of(services));
        reports.start(services.clusterService().getSettings());
        return List.of(weights, access, new WeightsChanges(services.clusterService(), access), reports);
    }

    @Override
    public Collection<ActionFilter> getActionFilters() {
        return List.of(new SketchFormatFilter());
    }

    @Override
    public List<Setting<?>> getSettings() {
        return List.of(TransportDuplicatesAction.KEEP_ALIVE_SETTING, ReportStore.CLEANUP_INTERVAL, BandFilters.ENABLED);
    }

    @Override
    public void onIndexModule(IndexModule indexModule) {
        indexModule.addIndexOperationListener(bandFilters);
        indexModule.addIndexEventListener(bandFilters);
    }

    @Override
    public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
        return Map.of(
            SimHashTokenFilterFactory.NAME, SimHashTokenFilterFactory::new,
            SmartcnStopFilterFactory.NAME, SmartcnStopFilterFactory::new);
    }

    @Override
    public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
        return Map.of(SmartcnTokenizerFactory.NAME, SmartcnTokenizerFactory::new);
    }

    @Override
    public Map<String, AnalysisProvider<AnalyzerProvider<? extends Analyzer>>> getAnalyzers() {
        return Map.of(SimHashTextAnalyzerProvider.NAME, SimHashTextAnalyzerProvider::new, V2FeaturesAnalyzer.NAME,
            V2FeaturesAnalyzerProvider::new);
    }

    @Override
    public Map<String, Mapper.TypeParser> getMappers() {
        return Map.of(SimHashFieldMapper.CONTENT_TYPE, SimHashFieldMapper.parser(weights, bandFilters));
    }

    @Override
    public Map<String, Processor.Factory> getProcessors(Processor.Parameters parameters) {
        return Map.of(SimHashProcessor.TYPE, new SimHashProcessor.Factory(parameters.analysisRegistry, weights),
            DedupProcessor.TYPE, new DedupProcessor.Factory(parameters, recentDocuments, weights));
    }

    @Override
    public List<QuerySpec<?>> getQueries() {
        // the query's text may name a feature-weight table: every builder the node reads knows where to find it
        return List.of(new QuerySpec<>(SimHashQueryBuilder.NAME, in -> new SimHashQueryBuilder(in).weightTables(weights),
            p -> SimHashQueryBuilder.fromXContent(p).weightTables(weights)));
    }

    @Override
    public ScriptEngine getScriptEngine(Settings settings, Collection<ScriptContext<?>> contexts) {
        return new SimHashScriptEngine();
    }

    @Override
    protected List<Action<?, ?>> actions() {
        return List.of(new Action<>(DuplicatesAction.INSTANCE, TransportDuplicatesAction.class),
            new Action<>(FoldAction.INSTANCE, TransportFoldAction.class),
            new Action<>(CalibrateAction.INSTANCE, TransportCalibrateAction.class),
            new Action<>(PutWeightsAction.INSTANCE, TransportPutWeightsAction.class),
            new Action<>(StoreWeightsAction.INSTANCE, TransportStoreWeightsAction.class),
            new Action<>(GetWeightsAction.INSTANCE, TransportGetWeightsAction.class),
            new Action<>(WeightsFeaturesAction.READ, TransportReadWeightsFeaturesAction.class),
            new Action<>(WeightsFeaturesAction.ADMIN, TransportAdminWeightsFeaturesAction.class),
            new Action<>(DeleteWeightsAction.INSTANCE, TransportDeleteWeightsAction.class),
            new Action<>(AsyncDuplicatesAction.INSTANCE, TransportAsyncDuplicatesAction.class),
            new Action<>(ReportGetAction.INSTANCE, TransportReportGetAction.class),
            new Action<>(ReportDeleteAction.INSTANCE, TransportReportDeleteAction.class),
            new Action<>(ShardBandsAction.INSTANCE, TransportShardBandsAction.class),
            new Action<>(LikedValuesAction.INSTANCE, TransportLikedValuesAction.class));
    }

    @Override
    public List<NamedWriteableRegistry.Entry> getNamedWriteables() {
        // the report's task status, read back by _tasks from other nodes and from the .tasks index
        // and the hex format of simhash fields' doc values, sent with search results between nodes
        // and the feature-weight tables, custom metadata of the cluster state (with the status of their task)
        List<NamedWriteableRegistry.Entry> entries = new ArrayList<>(List.of(
            new NamedWriteableRegistry.Entry(Task.Status.class, DuplicatesStatus.NAME, DuplicatesStatus::new),
            new NamedWriteableRegistry.Entry(DocValueFormat.class, HexFormat.NAME, HexFormat::readFrom),
            new NamedWriteableRegistry.Entry(Task.Status.class, WeightsStatus.NAME, WeightsStatus::new)));
        entries.addAll(CompatProjectCustom.namedWriteables(WeightsMetadata.TYPE, WeightsMetadata::new));
        return entries;
    }

    @Override
    public List<NamedXContentRegistry.Entry> getNamedXContent() {
        // the tables as persisted with the cluster state, read back when the node starts
        return List.of(CompatProjectCustom.namedXContent(WeightsMetadata.TYPE, WeightsMetadata::fromXContent));
    }

    @Override
    protected Collection<RestHandler> restHandlers(Predicate<NodeFeature> clusterSupportsFeature) {
        List<RestHandler> handlers = new ArrayList<>(List.of(new RestFoldAction(clusterSupportsFeature), new RestDuplicatesAction(),
            new RestCalibrateAction(), new RestReportGetAction(), new RestReportDeleteAction()));
        handlers.addAll(List.of(new RestPutWeightsAction(), new RestGetWeightsAction(), new RestDeleteWeightsAction()));
        return handlers;
    }
}
