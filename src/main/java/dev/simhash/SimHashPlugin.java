package dev.simhash;

import org.elasticsearch.plugins.Plugin;

/** Entry point of the simhash plugin: wires the components into Elasticsearch and holds no logic. */
public final class SimHashPlugin extends Plugin {
}
