package dev.simhash.calibrate;

import dev.simhash.breaker.RequestMemory;

import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.common.xcontent.support.XContentMapValues;
import org.elasticsearch.core.CheckedRunnable;
import org.elasticsearch.index.query.BoolQueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.tasks.CancellableTask;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the texts of sampled documents in pages, one search per page (source filtered to the text fields; as many documents
 * as {@link #PAGE_SOURCE_BYTES} holds at the largest source seen so far, at least one), and hands them on in the sample's
 * order on the generic pool. A page's bytes are charged to the request's memory while it arrives and its texts while they
 * wait to be read.
 */
final class TextPages {

    /** Texts read in the first page; later pages adapt to the largest source seen. */
    static final int FIRST_PAGE_DOCS = 4;
    static final int MAX_PAGE_DOCS = 200;
    /** The source bytes one page of texts should hold at most (one larger text is read alone). */
    static final long PAGE_SOURCE_BYTES = 8L << 20;
    /** Assumed source size of a text before any was seen. */
    static final long FIRST_SOURCE_BYTES = 16L << 10;
    /** Copies of a page's source in memory while it arrives: the response's bytes, the parsed source, the text. */
    static final int SOURCE_COPIES = 3;
    /** Heap per character of a text held between reading and reducing it (UTF-16 worst case plus the string). */
    static final long TEXT_BYTES_PER_CHAR = 2;
    static final long TEXT_OVERHEAD_BYTES = 64;

    /** Takes the text of the document at a place of the sample (null: none) as the pages arrive, in the sample's order. */
    @FunctionalInterface
    interface TextConsumer {
        void accept(int position, String text) throws Exception;
    }

    private final CancellableTask task;
    private final CalibrateRequest request;
    private final Client client;
    private final RequestMemory memory;
    private final JobSteps steps;
    private final CalibrateTargets targets;
    private final List<SampleDocs.Doc> docs;

    private int pageDocs = FIRST_PAGE_DOCS;
    private long largestSource = FIRST_SOURCE_BYTES;

    TextPages(CancellableTask task, CalibrateRequest request, Client client, RequestMemory memory, JobSteps steps,
              CalibrateTargets targets, List<SampleDocs.Doc> docs) {
        this.task = task;
        this.request = request;
        this.client = client;
        this.memory = memory;
        this.steps = steps;
        this.targets = targets;
        this.docs = docs;
    }

    /** Reads the texts of the documents at {@code positions} of the sample into {@code consumer}, then runs {@code then}. */
    void read(List<Integer> positions, TextConsumer consumer, CheckedRunnable<Exception> then) throws Exception {
        read(positions, 0, consumer, then);
    }

    private void read(List<Integer> positions, int from, TextConsumer consumer, CheckedRunnable<Exception> then) throws Exception {
        task.ensureNotCancelled();
        if (from >= positions.size()) {
            then.run();
            return;
        }
        int n = Math.min(pageDocs, positions.size() - from);
        List<Integer> page = positions.subList(from, from + n);
        long reserved = n * largestSource * SOURCE_COPIES;
        memory.add(reserved, "a page of [" + n + "] texts");
        Map<String, List<String>> idsByIndex = new TreeMap<>();
        Set<String> sourceFields = new LinkedHashSet<>();
        for (int position : page) {
            SampleDocs.Doc d = docs.get(position);
            idsByIndex.computeIfAbsent(d.index(), k -> new ArrayList<>()).add(d.id());
            CalibrateTargets.Target target = targets.target(d.index());
            if (target != null) {
                sourceFields.add(target.sourceField());
            }
        }
        BoolQueryBuilder query = QueryBuilders.boolQuery().minimumShouldMatch(1);
        idsByIndex.forEach((index, ids) -> query.should(QueryBuilders.boolQuery().filter(QueryBuilders.termQuery("_index", index))
            .filter(QueryBuilders.idsQuery().addIds(ids.toArray(String[]::new)))));
        SearchSourceBuilder source = new SearchSourceBuilder().query(query).size(n).trackTotalHits(false)
            .fetchSource(sourceFields.isEmpty() ? new String[] { "_none_" } : sourceFields.toArray(String[]::new), null);
        SearchRequest search = new SearchRequest(request.indices()).indicesOptions(request.indicesOptions()).source(source)
            .allowPartialSearchResults(false);
        client.execute(TransportSearchAction.TYPE, search, steps.step((SearchResponse r) -> {
            Map<String, String> texts = new HashMap<>();
            long held = 0;
            long largest = 0;
            for (SearchHit hit : r.getHits().getHits()) {
                CalibrateTargets.Target target = targets.target(hit.getIndex());
                if (target == null || !hit.hasSource()) {
                    continue;
                }
                largest = Math.max(largest, hit.getSourceRef().length());
                String text = text(XContentMapValues.extractValue(target.sourceField(), hit.getSourceAsMap()));
                if (text != null) {
                    texts.put(key(hit.getIndex(), hit.getId()), text);
                    held += TEXT_OVERHEAD_BYTES + TEXT_BYTES_PER_CHAR * text.length();
                }
            }
            largestSource = Math.max(largestSource, largest);
            pageDocs = (int) Math.max(1, Math.min(Math.min(MAX_PAGE_DOCS, 2L * pageDocs), PAGE_SOURCE_BYTES / largestSource));
            // from the page's estimate to the texts it left: the response's bytes go when this listener returns
            memory.release(reserved);
            memory.add(held, "a page of [" + texts.size() + "] texts");
            long charged = held;
            steps.fork(() -> {
                try {
                    for (int i = 0; i < page.size(); i++) {
                        if (i % 16 == 0) {
                            task.ensureNotCancelled();
                        }
                        int position = page.get(i);
                        SampleDocs.Doc d = docs.get(position);
                        consumer.accept(position, texts.remove(key(d.index(), d.id())));
                    }
                } finally {
                    memory.release(charged);
                }
                read(positions, from + n, consumer, then);
            });
        }));
    }

    /** A source value as one text: a string, the values of an array joined by newlines (read as one token sequence), else null. */
    static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            for (Object o : list) {
                String t = o instanceof List<?> ? null : text(o);
                if (t != null) {
                    parts.add(t);
                }
            }
            return parts.isEmpty() ? null : String.join("\n", parts);
        }
        return null;
    }

    private static String key(String index, String id) {
        return index + '\u0000' + id;
    }
}
