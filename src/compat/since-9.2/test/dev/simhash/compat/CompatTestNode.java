package dev.simhash.compat;

/** What the Elasticsearch node under test offers, where lines differ; the real-node tests skip what a line lacks. */
public final class CompatTestNode {

    private CompatTestNode() {}

    /** Whether {@code rescore} takes a {@code script} rescorer: from 9.2 on there is the {@code script} rescorer. */
    public static final boolean SCRIPT_RESCORER = true;
}
