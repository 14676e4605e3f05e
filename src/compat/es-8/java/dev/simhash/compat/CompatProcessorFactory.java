package dev.simhash.compat;

import org.elasticsearch.ingest.Processor;

/**
 * Base of an ingest processor factory: 8.19's {@code Processor.Factory#create} already has the plugin's signature
 * (factories, tag, description, config); 9.x adds the pipeline's project.
 */
public abstract class CompatProcessorFactory implements Processor.Factory {}
