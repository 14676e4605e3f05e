package dev.simhash.duplicates;

import dev.simhash.core.DuplicateGroups;
import dev.simhash.core.NearDuplicateComponents;
import dev.simhash.request.FingerprintMappings;

import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Fetches {@code _index} and {@code _id} of every member of the listed groups, when the report read fingerprints only:
 * through the report's point in time, a terms query on the members' fingerprints (which no document outside those groups
 * has: identical fingerprints share a group), in batches of at most {@link ReportSetup#memberTerms} fingerprints.
 */
final class MemberFetch {

    private final ReportContext run;
    private final ReportSetup setup;
    private final ReportScan scan;
    private final NearDuplicateComponents components;
    private final DuplicateGroups.Selection selection;
    private final DuplicateGroups.Listed listed;
    private final List<List<DuplicateGroups.Member>> members = new ArrayList<>();

    MemberFetch(ReportContext run, ReportSetup setup, ReportScan scan, long[] hashes, NearDuplicateComponents components,
                DuplicateGroups.Selection selection) {
        this.run = run;
        this.setup = setup;
        this.scan = scan;
        this.components = components;
        this.selection = selection;
        for (int p = 0; p < selection.components().length; p++) {
            members.add(new ArrayList<>());
        }
        if (run.request().maxMembers() == 0 || selection.components().length == 0) {
            listed = new DuplicateGroups.Listed(new long[0], new int[0]);
            return;
        }
        long listedDocs = 0;
        for (int c : selection.components()) {
            listedDocs += components.componentSize(c);
        }
        run.memory().add(DuplicateGroups.Selection.listedBytes(components.componentCount(), listedDocs), "members to fetch");
        listed = selection.listed(hashes, components);
    }

    /** Heap charged per member listed in the response: the member, its id string and the list's slot. */
    static long memberBytes(String id) {
        return 64 + id.length();
    }

    /** Fetches every listed member, then gives {@code then} the page of groups (the point in time closed). */
    void start(Consumer<DuplicateGroups.Page> then) {
        run.task().phase(DuplicatesStatus.Phase.MEMBERS);
        batch(0, null, then);
    }

    private void batch(int from, Object[] searchAfter, Consumer<DuplicateGroups.Page> then) {
        run.task().ensureNotCancelled();
        long[] memberHashes = listed.hashes();
        if (from >= memberHashes.length) {
            done(then);
            return;
        }
        int to = Math.min(memberHashes.length, from + setup.memberTerms());
        List<Long> terms = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            terms.add(memberHashes[i]);
        }
        SearchSourceBuilder source = scan.source(setup.covered(run.request()).filter(QueryBuilders.termsQuery(setup.hashPath(), terms)),
            searchAfter);
        run.client().execute(TransportSearchAction.TYPE, new SearchRequest().source(source).allowPartialSearchResults(false),
            run.step((SearchResponse r) -> {
                scan.checkShards(r, "fetching group members");
                SearchHit[] hits = r.getHits().getHits();
                long bytes = 0;
                for (SearchHit hit : hits) {
                    bytes += memberBytes(hit.getId());
                }
                run.memory().add(bytes, "members fetched");
                for (SearchHit hit : hits) {
                    Long hash = FingerprintMappings.fingerprintOf(hit, setup.fingerprints());
                    int p = hash == null ? -1 : listed.pageOf(hash, from, to);
                    // a document with several values may match through another one: count it in its own batch only
                    if (p >= 0) {
                        members.get(p).add(new DuplicateGroups.Member(hit.getIndex(), hit.getId()));
                    }
                }
                if (hits.length == setup.pageSize()) {
                    batch(from, hits[hits.length - 1].getSortValues(), then);
                } else {
                    batch(to, null, then);
                }
            }));
    }

    private void done(Consumer<DuplicateGroups.Page> then) {
        run.pit().close();
        int maxMembers = run.request().maxMembers();
        for (int p = 0; p < selection.components().length; p++) {
            int expected = maxMembers == 0 ? 0 : components.componentSize(selection.components()[p]);
            if (members.get(p).size() != expected) {
                throw new IllegalStateException("[_simhash/duplicates] found [" + members.get(p).size() + "] members of group ["
                    + DuplicateGroups.groupId(components, selection.components()[p]) + "] of size [" + expected + "]");
            }
        }
        then.accept(DuplicateGroups.page(selection, components, members, maxMembers));
    }
}
