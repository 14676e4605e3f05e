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
}
