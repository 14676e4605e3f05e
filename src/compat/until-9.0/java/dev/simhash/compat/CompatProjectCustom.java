package dev.simhash.compat;

import org.elasticsearch.cluster.AbstractNamedDiffable;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.NamedDiff;
import org.elasticsearch.cluster.metadata.ComponentTemplate;
import org.elasticsearch.cluster.metadata.ComposableIndexTemplate;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.IndexTemplateMetadata;
import org.elasticsearch.cluster.metadata.Metadata;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.core.CheckedFunction;
import org.elasticsearch.ingest.IngestMetadata;
import org.elasticsearch.ingest.PipelineConfiguration;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.xcontent.NamedXContentRegistry;
import org.elasticsearch.xcontent.ParseField;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Base of the plugin's custom metadata in the cluster state: 8.19 and 9.0 have one metadata for the whole cluster
 * ({@code Metadata.Custom}); persisted with the cluster state ({@code gateway} context) and sent whole when it changes.
 */
public abstract class CompatProjectCustom extends AbstractNamedDiffable<Metadata.Custom> implements Metadata.Custom {

    @Override
    public EnumSet<Metadata.XContentContext> context() {
        // API (GET _cluster/state), GATEWAY (survives a full cluster restart) and SNAPSHOT (global state of snapshots)
        return Metadata.ALL_CONTEXTS;
    }

    /** Registrations of a custom: as a metadata custom and its (whole-value) diff. */
    public static List<NamedWriteableRegistry.Entry> namedWriteables(String type, Writeable.Reader<? extends CompatProjectCustom> reader) {
        return List.of(new NamedWriteableRegistry.Entry(Metadata.Custom.class, type, reader),
            new NamedWriteableRegistry.Entry(NamedDiff.class, type, in -> AbstractNamedDiffable.readDiffFrom(Metadata.Custom.class, type, in)));
    }

    /** The parser of a custom as persisted (the gateway reads it back at startup). */
    public static NamedXContentRegistry.Entry namedXContent(String type,
                                                            CheckedFunction<XContentParser, ? extends CompatProjectCustom, IOException> parser) {
        return new NamedXContentRegistry.Entry(Metadata.Custom.class, new ParseField(type), parser::apply);
    }

    /** Reads and writes the custom; reads the pipelines, the indices and the index templates of the cluster state's metadata. */
    public static final class Access {

        private Access() {}

        public static Access of(Plugin.PluginServices services) {
            return new Access();
        }

        /** The custom of that type, or null. */
        public <T extends CompatProjectCustom> T custom(ClusterState state, String type) {
            Metadata.Custom c = state.metadata().custom(type);
            @SuppressWarnings("unchecked")
            T t = (T) c;
            return t;
        }

        /** The state with the custom replaced. */
        public ClusterState withCustom(ClusterState state, String type, CompatProjectCustom custom) {
            return ClusterState.builder(state).metadata(Metadata.builder(state.metadata()).putCustom(type, custom)).build();
        }

        /** Every ingest pipeline's configuration by id. */
        public Map<String, Map<String, Object>> pipelines(ClusterState state) {
            Map<String, Map<String, Object>> out = new LinkedHashMap<>();
            IngestMetadata ingest = state.metadata().custom(IngestMetadata.TYPE);
            if (ingest != null) {
                for (Map.Entry<String, PipelineConfiguration> e : ingest.getPipelines().entrySet()) {
                    out.put(e.getKey(), e.getValue().getConfig());
                }
            }
            return out;
        }

        /** Every index of the cluster. */
        public Iterable<IndexMetadata> indices(ClusterState state) {
            return state.metadata();
        }

        /** Every composable index template of the cluster by name. */
        public Map<String, ComposableIndexTemplate> composableTemplates(ClusterState state) {
            return state.metadata().templatesV2();
        }

        /** Every component template of the cluster by name. */
        public Map<String, ComponentTemplate> componentTemplates(ClusterState state) {
            return state.metadata().componentTemplates();
        }

        /** Every legacy ({@code _template}) index template of the cluster by name. */
        public Map<String, IndexTemplateMetadata> legacyTemplates(ClusterState state) {
            return state.metadata().templates();
        }
    }
}
