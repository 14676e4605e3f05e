package dev.simhash.duplicates;

import dev.simhash.core.DuplicateGroups;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Elasticsearch's wire contract for the report (a page of groups and the totals). */
public class DuplicatesResponseWireTest extends AbstractWireSerializingTestCase<DuplicatesResponse> {

    private static DuplicateGroups.Member member(boolean verified) {
        return new DuplicateGroups.Member(randomAlphaOfLengthBetween(1, 8), randomAlphaOfLengthBetween(1, 20),
            verified ? randomDoubleBetween(0, 1, true) : null);
    }

    private static DuplicateGroups.Page randomPage(boolean verified) {
        List<DuplicateGroups.Group> groups = new ArrayList<>();
        for (int g = between(0, 4); g > 0; g--) {
            List<DuplicateGroups.Member> members = new ArrayList<>();
            for (int m = between(0, 4); m > 0; m--) {
                members.add(member(verified));
            }
            groups.add(new DuplicateGroups.Group(String.format(Locale.ROOT, "%016x", randomLong()), between(2, 1000), members,
                verified ? member(true) : null));
        }
        return new DuplicateGroups.Page(randomNonNegativeInt(), randomNonNegativeInt(), randomNonNegativeLong(), groups);
    }

    private static DuplicatesResponse.Phases randomPhases() {
        return new DuplicatesResponse.Phases(randomNonNegativeLong(), randomNonNegativeLong(), randomNonNegativeLong(),
            randomNonNegativeLong());
    }

    @Override
    protected DuplicatesResponse createTestInstance() {
        boolean verified = randomBoolean();
        return new DuplicatesResponse(randomAlphaOfLengthBetween(1, 10), between(0, 11), verified ? randomDoubleBetween(0.01, 1, true) : null,
            randomNonNegativeLong(), randomPhases(), randomPage(verified), randomBoolean() ? randomAlphaOfLength(5) : null,
            randomNonNegativeLong(), randomNonNegativeLong());
    }

    @Override
    protected DuplicatesResponse mutateInstance(DuplicatesResponse r) {
        String field = r.field();
        int maxDistance = r.maxDistance();
        Double minSimilarity = r.minSimilarity();
        long took = r.tookMillis();
        DuplicatesResponse.Phases phases = r.phases();
        DuplicateGroups.Page page = r.page();
        String groupIdField = r.groupIdField();
        long updated = r.updated();
        long peak = r.peakMemoryBytes();
        switch (between(0, 8)) {
            case 0 -> field = field + "x";
            case 1 -> maxDistance = (maxDistance + 1) % 12;
            case 2 -> minSimilarity = minSimilarity == null ? 0.5 : null;
            case 3 -> took = took + 1;
            case 4 -> phases = randomValueOtherThan(phases, DuplicatesResponseWireTest::randomPhases);
            case 5 -> page = randomValueOtherThan(page, () -> randomPage(r.minSimilarity() != null));
            case 6 -> groupIdField = groupIdField == null ? "g" : null;
            case 7 -> updated = updated + 1;
            default -> peak = peak + 1;
        }
        return new DuplicatesResponse(field, maxDistance, minSimilarity, took, phases, page, groupIdField, updated, peak);
    }

    @Override
    protected Writeable.Reader<DuplicatesResponse> instanceReader() {
        return DuplicatesResponse::new;
    }
}
