package dev.simhash.compat;

import org.elasticsearch.cluster.metadata.ProjectId;
import org.elasticsearch.ingest.Processor;

import java.util.Map;

/** Base of an ingest processor factory: 9.1 and later pass the pipeline's project, which the plugin does not need. */
public abstract class CompatProcessorFactory implements Processor.Factory {

    @Override
    public final Processor create(Map<String, Processor.Factory> factories, String tag, String description, Map<String, Object> config,
                                  ProjectId projectId) throws Exception {
        return create(factories, tag, description, config);
    }

    /** The processor of one pipeline entry; {@code config} loses the options read. */
    public abstract Processor create(Map<String, Processor.Factory> factories, String tag, String description, Map<String, Object> config)
        throws Exception;
}
