package dev.simhash.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A compact, append-only table of (index, id, fingerprint, routing) for every document of a
 * near-duplicate report. Ids are kept as UTF-8 bytes in one array per page of {@value #PAGE_DOCS}
 * documents instead of one String object each, which keeps about {@code 16 + id length} bytes per
 * document. Plain Java, no Elasticsearch imports.
 */
public final class FingerprintTable {

    /** Documents per id page. */
    static final int PAGE_DOCS = 1 << 13;

    private final List<String> indexNames = new ArrayList<>();
    private final List<byte[]> idPages = new ArrayList<>();
    private final List<int[]> idEndPages = new ArrayList<>();
    private final List<String[]> routingPages = new ArrayList<>();
    private long[] hashes = new long[1024];
    private int[] indexOrds = new int[1024];
    private int size;
    private long routingBytes;

    // the page being filled
    private byte[] pageBytes = new byte[PAGE_DOCS * 16];
    private int pageBytesUsed;
    private int[] pageEnds = new int[PAGE_DOCS];
    private String[] pageRoutings;

    /** Appends a document; {@code routing} may be null. */
    public void add(String index, String id, long hash, String routing) {
        if (size == hashes.length) {
            int grown = size + (size >> 1);
            hashes = Arrays.copyOf(hashes, grown);
            indexOrds = Arrays.copyOf(indexOrds, grown);
        }
        hashes[size] = hash;
        indexOrds[size] = indexOrd(index);
        int inPage = size % PAGE_DOCS;
        byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
        if (pageBytesUsed + utf8.length > pageBytes.length) {
            pageBytes = Arrays.copyOf(pageBytes, Math.max(pageBytes.length * 2, pageBytesUsed + utf8.length));
        }
        System.arraycopy(utf8, 0, pageBytes, pageBytesUsed, utf8.length);
        pageBytesUsed += utf8.length;
        pageEnds[inPage] = pageBytesUsed;
        if (routing != null) {
            if (pageRoutings == null) {
                pageRoutings = new String[PAGE_DOCS];
            }
            pageRoutings[inPage] = routing;
            // one String per routing value: its object, its array's header, and its bytes (compact strings)
            routingBytes += 40 + routing.length();
        }
        size++;
        if (size % PAGE_DOCS == 0) {
            sealPage();
        }
    }

    private int indexOrd(String index) {
        // reports usually cover one or a few indices: the last one added is almost always the one
        for (int i = indexNames.size() - 1; i >= 0; i--) {
            if (indexNames.get(i).equals(index)) {
                return i;
            }
        }
        indexNames.add(index);
        return indexNames.size() - 1;
    }

    private void sealPage() {
        int docs = size % PAGE_DOCS == 0 ? PAGE_DOCS : size % PAGE_DOCS;
        idPages.add(Arrays.copyOf(pageBytes, pageBytesUsed));
        idEndPages.add(Arrays.copyOf(pageEnds, docs));
        routingPages.add(pageRoutings == null ? null : Arrays.copyOf(pageRoutings, docs));
        pageBytesUsed = 0;
        pageRoutings = null;
    }

    /** Number of documents. */
    public int size() {
        return size;
    }

    /** The fingerprint of every document, in insertion order (a trimmed copy). */
    public long[] hashes() {
        return Arrays.copyOf(hashes, size);
    }

    public long hash(int doc) {
        check(doc);
        return hashes[doc];
    }

    public String index(int doc) {
        check(doc);
        return indexNames.get(indexOrds[doc]);
    }

    public String id(int doc) {
        check(doc);
        int page = doc / PAGE_DOCS;
        int inPage = doc % PAGE_DOCS;
        byte[] bytes;
        int[] ends;
        if (page < idPages.size()) {
            bytes = idPages.get(page);
            ends = idEndPages.get(page);
        } else {
            bytes = pageBytes;
            ends = pageEnds;
        }
        int start = inPage == 0 ? 0 : ends[inPage - 1];
        return new String(bytes, start, ends[inPage] - start, StandardCharsets.UTF_8);
    }

    /** The routing the document was indexed with, or null. */
    public String routing(int doc) {
        check(doc);
        int page = doc / PAGE_DOCS;
        String[] routings = page < routingPages.size() ? routingPages.get(page) : pageRoutings;
        return routings == null ? null : routings[doc % PAGE_DOCS];
    }

    /** Approximate heap held by the table, for the report's memory accounting. */
    public long ramBytesUsed() {
        long bytes = (long) hashes.length * Long.BYTES + (long) indexOrds.length * Integer.BYTES
            + pageBytes.length + (long) pageEnds.length * Integer.BYTES + routingBytes
            + (pageRoutings == null ? 0 : (long) pageRoutings.length * 8);
        for (int p = 0; p < idPages.size(); p++) {
            bytes += idPages.get(p).length + 16 + (long) idEndPages.get(p).length * Integer.BYTES + 16;
            String[] routings = routingPages.get(p);
            if (routings != null) {
                bytes += (long) routings.length * 8;
            }
        }
        return bytes;
    }

    private void check(int doc) {
        if (doc < 0 || doc >= size) {
            throw new IndexOutOfBoundsException("document [" + doc + "] outside [0, " + size + ")");
        }
    }
}
