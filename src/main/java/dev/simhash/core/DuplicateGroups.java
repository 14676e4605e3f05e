package dev.simhash.core;


import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Turns connected components over a {@link FingerprintTable} into the report's groups: components of
 * two or more documents, largest first, then by group id; a group's id is its smallest fingerprint
 * in hex, which no other group (and, without sketches, no other document outside the group) has
 * (see {@link NearDuplicateComponents#componentMinHash}). Plain Java, no Elasticsearch imports.
 */
public final class DuplicateGroups {

    /** A document of a group; with {@code min_similarity}, its estimated similarity to the group's representative (else null). */
    public record Member(String index, String id, Double similarity) {
        public Member(String index, String id) {
            this(index, id, null);
        }
    }

    /**
     * One group: its id, its size in documents and the first members by {@code _id} (then {@code _index}); with
     * {@code min_similarity}, its representative (else null), the document the members' similarities are measured to.
     */
    public record Group(String groupId, int size, List<Member> members, Member representative) {
        public Group(String groupId, int size, List<Member> members) {
            this(groupId, size, members, null);
        }
    }

    /** The estimated similarity of two documents of a report, by their numbers. */
    @FunctionalInterface
    public interface DocSimilarity {
        double similarity(int doc, int other);
    }

    /** A page of groups with the report's totals. */
    public record Page(int totalDocs, int groupsTotal, long duplicatesTotal, List<Group> groups) {}

    private static final Comparator<Member> MEMBER_ORDER = Comparator.comparing(Member::id).thenComparing(Member::index);

    private DuplicateGroups() {}

    /** The group id of component {@code c}: its smallest fingerprint as 16 hex digits. */
    public static String groupId(NearDuplicateComponents components, int c) {
        return SimHash.toHex(components.componentMinHash(c));
    }

    /**
     * The groups of a report page, before their members are known: the totals and the component ids of groups
     * {@code [from, from + size)} in report order.
     */
    public record Selection(int totalDocs, int groupsTotal, long duplicatesTotal, int[] components) {
        /** The position in the page of each component, -1 for components not on the page. */
        public int[] pagePositions(int componentCount) {
            int[] position = new int[componentCount];
            Arrays.fill(position, -1);
            for (int p = 0; p < components.length; p++) {
                position[components[p]] = p;
            }
            return position;
        }

        /**
         * The fingerprints of the documents in the page's groups ({@code hashes} by document, as {@code components} grouped
         * them), distinct and sorted, each with its group's position in the page: what a member fetch searches for. Every
         * document with one of these fingerprints is in that group (identical fingerprints are always linked).
         */
        public Listed listed(long[] hashes, NearDuplicateComponents components) {
            int[] position = pagePositions(components.componentCount());
            long[] found = new long[16];
            int n = 0;
            for (int doc = 0; doc < hashes.length; doc++) {
                if (position[components.componentOf(doc)] >= 0) {
                    if (n == found.length) {
                        found = Arrays.copyOf(found, n + (n >> 1));
                    }
                    found[n++] = hashes[doc];
                }
            }
            Arrays.sort(found, 0, n);
            int m = 0;
            for (int i = 0; i < n; i++) {
                if (m == 0 || found[m - 1] != found[i]) {
                    found[m++] = found[i];
                }
            }
            long[] sorted = Arrays.copyOf(found, m);
            int[] page = new int[m];
            for (int doc = 0; doc < hashes.length; doc++) {
                int p = position[components.componentOf(doc)];
                if (p >= 0) {
                    page[Arrays.binarySearch(sorted, hashes[doc])] = p;
                }
            }
            return new Listed(sorted, page);
        }

        /** Heap that {@link #listed} takes for {@code listedDocs} documents in the page's groups, at most. */
        public static long listedBytes(int componentCount, long listedDocs) {
            // the page positions; the fingerprints growing by half, their distinct copy and its positions
            return (long) componentCount * Integer.BYTES + listedDocs * (12 + 8 + 4);
        }
    }

    /**
     * The fingerprints of a page's members, sorted and distinct ({@code hashes}), and the page position of each one's group
     * ({@code page}, by the same index).
     */
    public record Listed(long[] hashes, int[] page) {
        /** The page position of the group of fingerprint {@code hash} among {@code hashes[from..to)}, or -1 when it is not one. */
        public int pageOf(long hash, int from, int to) {
            int k = Arrays.binarySearch(hashes, from, to, hash);
            return k < 0 ? -1 : page[k];
        }
    }

    /** Selects groups {@code [from, from + size)} in report order: largest first, then by group id. */
    public static Selection select(NearDuplicateComponents components, int from, int size) {
        int groupCount = 0;
        long duplicates = 0;
        for (int c = 0; c < components.componentCount(); c++) {
            if (components.componentSize(c) > 1) {
                groupCount++;
                duplicates += components.componentSize(c);
            }
        }
        Integer[] groups = new Integer[groupCount];
        int g = 0;
        for (int c = 0; c < components.componentCount(); c++) {
            if (components.componentSize(c) > 1) {
                groups[g++] = c;
            }
        }
        // largest first; equal sizes by group id, i.e. by the unsigned smallest fingerprint
        Arrays.sort(groups, Comparator.<Integer>comparingInt(c -> -components.componentSize(c))
            .thenComparing((a, b) -> Long.compareUnsigned(components.componentMinHash(a), components.componentMinHash(b))));
        int start = (int) Math.min(from, groupCount);
        int end = (int) Math.min((long) from + size, groupCount);
        int[] page = new int[end - start];
        for (int p = start; p < end; p++) {
            page[p - start] = groups[p];
        }
        return new Selection(components.size(), groupCount, duplicates, page);
    }

    /**
     * The page of {@code selection} with the given members of each of its groups (in any order): sorted by {@code _id},
     * then {@code _index}, at most {@code maxMembers} listed per group.
     */
    public static Page page(Selection selection, NearDuplicateComponents components, List<List<Member>> members, int maxMembers) {
        List<Group> out = new ArrayList<>(selection.components().length);
        for (int p = 0; p < selection.components().length; p++) {
            int c = selection.components()[p];
            List<Member> list = new ArrayList<>(members.get(p));
            list.sort(MEMBER_ORDER);
            out.add(new Group(groupId(components, c), components.componentSize(c),
                List.copyOf(list.subList(0, Math.min(maxMembers, list.size())))));
        }
        return new Page(selection.totalDocs(), selection.groupsTotal(), selection.duplicatesTotal(), out);
    }

    /**
     * Per group of the page, its representative document: of the documents identical to the one the components chose
     * (same fingerprint, same sketch: similarity 1), the first by {@code _id}, then {@code _index}, so that a report names
     * the same document whatever order the shards were read in; -1 for a group without one.
     */
    private static int[] representatives(FingerprintTable table, NearDuplicateComponents components, Selection selection,
                                         int[] pagePosition, DocSimilarity similarity) {
        int[] reps = new int[selection.components().length];
        for (int p = 0; p < reps.length; p++) {
            reps[p] = components.representative(selection.components()[p]);
        }
        int[] chosen = reps.clone();
        for (int doc = 0; doc < table.size(); doc++) {
            int p = pagePosition[components.componentOf(doc)];
            if (p < 0 || reps[p] < 0 || doc == reps[p] || table.hash(doc) != table.hash(reps[p])) {
                continue;
            }
            int c = chosen[p];
            boolean earlier = table.id(doc).compareTo(table.id(c)) < 0
                || table.id(doc).equals(table.id(c)) && table.index(doc).compareTo(table.index(c)) < 0;
            if (earlier && similarity.similarity(doc, reps[p]) == 1.0) {
                chosen[p] = doc;
            }
        }
        return chosen;
    }

    /** Groups {@code [from, from + size)} in report order, each listing at most {@code maxMembers} members. */
    public static Page page(FingerprintTable table, NearDuplicateComponents components, int from, int size, int maxMembers) {
        return page(table, components, from, size, maxMembers, null);
    }

    /**
     * Like {@link #page(FingerprintTable, NearDuplicateComponents, int, int, int)}; with {@code similarity} (components
     * found with sketches), each member shows its similarity to its group's representative, and each group its
     * representative.
     */
    public static Page page(FingerprintTable table, NearDuplicateComponents components, int from, int size, int maxMembers,
                            DocSimilarity similarity) {
        if (table.size() != components.size()) {
            throw new IllegalArgumentException("table and components differ in size: " + table.size() + " vs " + components.size());
        }
        Selection selection = select(components, from, size);
        int[] pagePosition = selection.pagePositions(components.componentCount());
        int[] representatives = similarity == null ? null : representatives(table, components, selection, pagePosition, similarity);
        List<List<Member>> members = new ArrayList<>();
        for (int p = 0; p < selection.components().length; p++) {
            members.add(new ArrayList<>());
        }
        if (maxMembers > 0 && selection.components().length > 0) {
            for (int doc = 0; doc < table.size(); doc++) {
                int p = pagePosition[components.componentOf(doc)];
                if (p >= 0) {
                    int rep = representatives == null ? -1 : representatives[p];
                    members.get(p).add(new Member(table.index(doc), table.id(doc),
                        similarity == null || rep < 0 ? null : similarity.similarity(doc, rep)));
                }
            }
        }
        Page page = page(selection, components, members, maxMembers);
        if (similarity == null) {
            return page;
        }
        List<Group> groups = new ArrayList<>(page.groups().size());
        for (int p = 0; p < page.groups().size(); p++) {
            Group g = page.groups().get(p);
            int rep = representatives[p];
            groups.add(rep < 0 ? g : new Group(g.groupId(), g.size(), g.members(), new Member(table.index(rep), table.id(rep), 1.0)));
        }
        return new Page(page.totalDocs(), page.groupsTotal(), page.duplicatesTotal(), groups);
    }
}
