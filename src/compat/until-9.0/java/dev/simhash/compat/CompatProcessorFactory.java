package dev.simhash.compat;

import org.elasticsearch.ingest.Processor;

/**
 * Base of an ingest processor factory: 8.19's and 9.0's {@code Processor.Factory#create} already have the plugin's signature
 * (factories, tag, description, config); 9.1 and later add the pipeline's project.
 */
public abstract class CompatProcessorFactory implements Processor.Factory {}
