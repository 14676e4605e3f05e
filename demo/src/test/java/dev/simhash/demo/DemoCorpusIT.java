package dev.simhash.demo;

import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;
import dev.simhash.it.support.SampleCorpus;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo's corpus, loaded and queried the way {@code ./run demo} does, still shows exactly its planted near-duplicates. */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DemoCorpusIT {

    static final String INDEX = "demo-corpus-it";

    private final Rest rest;
    private final SampleCorpus corpus = SampleCorpus.load();
    private final DemoIndex index;

    DemoCorpusIT(Rest rest) {
        this.rest = rest;
        this.index = new DemoIndex(rest, INDEX);
    }

    @BeforeAll
    void load() {
        index.create();
        index.load(corpus);
    }

    @AfterAll
    void cleanUp() {
        // by name: wildcard deletes are refused by default (action.destructive_requires_name)
        rest.delete("/" + INDEX);
    }

    @Test
    void everyDocumentFindsExactlyItsPlantedGroupInBothLanguages() {
        for (String lang : List.of("zh", "en")) {
            long groups = corpus.groups().stream().filter(g -> g.startsWith(lang + "-")).count();
            long unrelated = corpus.docs().stream().filter(d -> d.lang().equals(lang) && d.group() == null).count();
            assertTrue(groups >= 5 && unrelated >= 15, lang + ": the demo needs planted groups and unrelated documents, has "
                + groups + " and " + unrelated);
        }
        Map<String, Set<String>> found = index.nearDuplicatesOfEach(corpus);
        for (SampleCorpus.Doc d : corpus.docs()) {
            assertEquals(corpus.expectedNearDuplicates(d.id()), found.get(d.id()), d.id() + " at max_distance " + DemoIndex.MAX_DISTANCE);
        }
    }

    @Test
    void distancesTheDemoPrintsAreTheFingerprintDistances() {
        // the field's default: simhash-v2
        for (String id : List.of("zh-cpi-1", "en-rates-1")) {
            long query = SimHashV2.fingerprint(corpus.doc(id).body(), 1).getAsLong();
            for (DemoIndex.Hit h : index.search(index.likeQuery(id))) {
                assertEquals(SimHash.distance(query, SimHashV2.fingerprint(corpus.doc(h.id()).body(), 1).getAsLong()), h.distance(), h.id());
            }
        }
    }

    @Test
    void freeTextQueriesFindTheirPlantedGroup() {
        for (SampleCorpus.TextQuery q : SampleCorpus.TEXT_QUERIES) {
            Set<String> ids = new LinkedHashSet<>();
            index.search(index.textQuery(q.text())).forEach(h -> ids.add(h.id()));
            assertEquals(corpus.group(q.group()), ids, q.lang() + ": " + q.text());
        }
        assertEquals(Set.of("zh", "en"), Set.copyOf(SampleCorpus.TEXT_QUERIES.stream().map(SampleCorpus.TextQuery::lang).toList()));
    }

    /** The demo's fold searches, at the field's default radius, fold planted copies and nothing unrelated, in both languages. */
    @Test
    void foldingShowsEachPlantedGroupOnce() {
        int foldedTotal = 0;
        for (SampleCorpus.TextQuery q : SampleCorpus.FOLD_QUERIES) {
            Map<String, Object> body = DemoIndex.matchQuery(q.text(), 8);
            List<DemoIndex.Ranked> plain = index.ranked(body, false);
            List<DemoIndex.Ranked> folded = index.ranked(body, true);
            for (DemoIndex.Ranked r : folded) {
                String group = corpus.doc(r.id()).group();
                for (String member : r.folded()) {
                    assertEquals(group, corpus.doc(member).group(), q.text() + ": " + member + " folded under " + r.id());
                }
                foldedTotal += r.folded().size();
            }
            long plainDuplicates = plain.stream().filter(r -> corpus.doc(r.id()).group() != null).count()
                - plain.stream().map(r -> corpus.doc(r.id()).group()).filter(g -> g != null).distinct().count();
            assertTrue(plainDuplicates > 0, q.lang() + ": the plain result list should show repeated stories: " + plain);
        }
        assertTrue(foldedTotal >= 2, "folded hits: " + foldedTotal);
    }

    /** At simhash-v2's default radius no unrelated pair of the demo's documents matches (precision 1); recall is what it is. */
    @Test
    void theDefaultRadiusMatchesNoUnrelatedPair() {
        Map<String, Long> fp = index.fingerprints();
        int radius = FingerprintSpec.LATEST.defaultMaxDistance();
        int plantedWithin = 0;
        for (SampleCorpus.Doc a : corpus.docs()) {
            for (SampleCorpus.Doc b : corpus.docs()) {
                if (a.id().compareTo(b.id()) < 0 && SimHash.distance(fp.get(a.id()), fp.get(b.id())) <= radius) {
                    assertTrue(a.group() != null && a.group().equals(b.group()), a.id() + " and " + b.id() + " within " + radius);
                    plantedWithin++;
                }
            }
        }
        assertTrue(plantedWithin >= 10, "planted pairs within the default radius: " + plantedWithin);
    }

    @Test
    void theShowcasedDocumentsHaveCopiesInBothLanguages() {
        Set<String> langs = new LinkedHashSet<>();
        for (String id : Demo.SHOWCASE) {
            SampleCorpus.Doc d = corpus.doc(id);
            if (d.group() != null) {
                langs.add(d.lang());
            }
        }
        assertEquals(Set.of("zh", "en"), langs);
    }
}
