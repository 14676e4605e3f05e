package dev.simhash.compat;

/** What the Elasticsearch node under test offers, where lines differ; the real-node tests skip what a line lacks. */
public final class CompatTestNode {

    private CompatTestNode() {}

    /** Whether {@code rescore} takes a {@code script} rescorer: up to 9.1 there is no {@code script} rescorer (only {@code query}). */
    public static final boolean SCRIPT_RESCORER = false;
}
