package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DuplicateGroupsTest {

    private static final Runnable NEVER = () -> {};

    @Test
    void groupsOrderedBySizeThenGroupIdMembersByIdThenIndexPaged() {
        FingerprintTable t = new FingerprintTable();
        // group A (3 members, smallest fingerprint 0x0f00...), group B (3 members, smallest 0x00ff...), group C (2), singletons
        t.add("i2", "a", 0x0f00_0000_0000_0001L, null);
        t.add("i1", "b", 0x0f00_0000_0000_0000L, null);
        t.add("i1", "a", 0x0f00_0000_0000_0003L, null);
        t.add("i1", "x", 0x00ff_0000_0000_0000L, null);
        t.add("i1", "y", 0x00ff_0000_0000_0000L, null);
        t.add("i1", "w", 0x00ff_0000_0000_0001L, null);
        t.add("i1", "c1", 0xffff_0000_0000_0000L, null);
        t.add("i1", "c2", 0xffff_0000_0000_0002L, null);
        t.add("i1", "lonely", 0x1234_5678_9abc_def0L, null);
        NearDuplicateComponents c = NearDuplicateComponents.find(t.hashes(), 2, NEVER);

        DuplicateGroups.Page all = DuplicateGroups.page(t, c, 0, 10, 10);
        assertEquals(9, all.totalDocs());
        assertEquals(3, all.groupsTotal());
        assertEquals(8, all.duplicatesTotal());
        assertEquals(List.of("00ff000000000000", "0f00000000000000", "ffff000000000000"),
            all.groups().stream().map(DuplicateGroups.Group::groupId).toList());
        assertEquals(List.of(3, 3, 2), all.groups().stream().map(DuplicateGroups.Group::size).toList());
        assertEquals(List.of(new DuplicateGroups.Member("i1", "a"), new DuplicateGroups.Member("i2", "a"), new DuplicateGroups.Member("i1", "b")),
            all.groups().get(1).members());

        DuplicateGroups.Page second = DuplicateGroups.page(t, c, 1, 1, 2);
        assertEquals(1, second.groups().size());
        assertEquals("0f00000000000000", second.groups().get(0).groupId());
        assertEquals(3, second.groups().get(0).size(), "size is the full count");
        assertEquals(2, second.groups().get(0).members().size());
        assertEquals(List.of(), DuplicateGroups.page(t, c, 3, 10, 10).groups());
        assertEquals(List.of(), DuplicateGroups.page(t, c, Integer.MAX_VALUE, 1000, 10).groups());
        assertEquals(List.of(), DuplicateGroups.page(t, c, 0, 10, 0).groups().get(0).members());
    }

    /**
     * The fingerprints a member fetch searches for: exactly the distinct fingerprints of the documents in the page's
     * groups, sorted, each mapped to its group's page position (checked against every document, on random planted data).
     */
    @Test
    void theListedFingerprintsAreThoseOfThePagesMembersWithTheirGroupsPositions() {
        java.util.Random r = new java.util.Random(5);
        for (int round = 0; round < 50; round++) {
            long[] hashes = FingerprintSets.planted(r, 50 + r.nextInt(400), 1 + r.nextInt(20), 3);
            NearDuplicateComponents c = NearDuplicateComponents.find(hashes, 3, NEVER);
            DuplicateGroups.Selection selection = DuplicateGroups.select(c, r.nextInt(4), r.nextInt(6));
            DuplicateGroups.Listed listed = selection.listed(hashes, c);
            int[] position = selection.pagePositions(c.componentCount());
            java.util.TreeMap<Long, Integer> expected = new java.util.TreeMap<>();
            for (int doc = 0; doc < hashes.length; doc++) {
                int p = position[c.componentOf(doc)];
                if (p >= 0) {
                    Integer before = expected.put(hashes[doc], p);
                    assertEquals(before == null ? p : before, p, "one fingerprint, one group");
                }
            }
            assertEquals(List.copyOf(expected.keySet()), java.util.Arrays.stream(listed.hashes()).boxed().toList(), "round " + round);
            for (int i = 0; i < listed.hashes().length; i++) {
                assertEquals(expected.get(listed.hashes()[i]), listed.page()[i]);
                assertEquals(listed.page()[i], listed.pageOf(listed.hashes()[i], 0, listed.hashes().length));
            }
            for (long h : hashes) {
                if (!expected.containsKey(h)) {
                    assertEquals(-1, listed.pageOf(h, 0, listed.hashes().length), "a fingerprint off the page");
                }
            }
        }
    }
}
