package dev.simhash.query;

/**
 * The {@code like} of a {@code simhash} query: a reference to an indexed document whose fingerprint (and sketch) is the
 * query; {@code index} null searches all indices for it, {@code routing} as the document APIs take it.
 */
public record Like(String index, String id, String routing) {

    public Like {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("[like] requires a document [id]");
        }
    }

    /** The document as errors name it: {@code [id]} or {@code [index/id]}. */
    String describe() {
        return index == null ? "[" + id + "]" : "[" + index + "/" + id + "]";
    }
}
