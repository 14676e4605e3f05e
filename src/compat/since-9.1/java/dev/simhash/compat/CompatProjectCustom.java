package dev.simhash.compat;

import org.elasticsearch.cluster.AbstractNamedDiffable;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.NamedDiff;
import org.elasticsearch.cluster.metadata.ComponentTemplate;
import org.elasticsearch.cluster.metadata.ComposableIndexTemplate;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.IndexTemplateMetadata;
import org.elasticsearch.cluster.metadata.Metadata;
import org.elasticsearch.cluster.metadata.ProjectMetadata;
import org.elasticsearch.cluster.project.ProjectResolver;
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
 * Base of the plugin's custom metadata in the cluster state, kept in the caller's project in 9.1 and later (like ingest pipelines),
 * persisted with the cluster state ({@code gateway} context) and sent whole when it changes. A plugin component (the
 * {@link Access} inner class) reads and writes it.
 */
public abstract class CompatProjectCustom extends AbstractNamedDiffable<Metadata.ProjectCustom> implements Metadata.ProjectCustom {

    @Override
    public EnumSet<Metadata.XContentContext> context() {
        // API (GET _cluster/state), GATEWAY (survives a full cluster restart) and SNAPSHOT (global state of snapshots)
        return Metadata.ALL_CONTEXTS;
    }

    /** Registrations of a custom: as a project custom and its (whole-value) diff. */
    public static List<NamedWriteableRegistry.Entry> namedWriteables(String type, Writeable.Reader<? extends CompatProjectCustom> reader) {
        return List.of(new NamedWriteableRegistry.Entry(Metadata.ProjectCustom.class, type, reader),
            new NamedWriteableRegistry.Entry(NamedDiff.class, type,
                in -> AbstractNamedDiffable.readDiffFrom(Metadata.ProjectCustom.class, type, in)));
    }

    /** The parser of a custom as persisted (the gateway reads it back at startup). */
    public static NamedXContentRegistry.Entry namedXContent(String type,
                                                            CheckedFunction<XContentParser, ? extends CompatProjectCustom, IOException> parser) {
        return new NamedXContentRegistry.Entry(Metadata.ProjectCustom.class, new ParseField(type), parser::apply);
    }

    /** Reads and writes the custom; reads the pipelines, the indices and the index templates of the caller's project in a cluster state. */
    public static final class Access {
        private final ProjectResolver projectResolver;

        private Access(ProjectResolver projectResolver) {
            this.projectResolver = projectResolver;
        }

        public static Access of(Plugin.PluginServices services) {
            return new Access(services.projectResolver());
        }

        /** The custom of that type, or null (also while the state has no project yet, e.g. before it is recovered). */
        public <T extends CompatProjectCustom> T custom(ClusterState state, String type) {
            if (!projectResolver.hasProject(state)) {
                return null;
            }
            Metadata.ProjectCustom c = projectResolver.getProjectMetadata(state).custom(type);
            @SuppressWarnings("unchecked")
            T t = (T) c;
            return t;
        }

        /** The state with the custom replaced. */
        public ClusterState withCustom(ClusterState state, String type, CompatProjectCustom custom) {
            ProjectMetadata project = projectResolver.getProjectMetadata(state);
            return ClusterState.builder(state).putProjectMetadata(ProjectMetadata.builder(project).putCustom(type, custom)).build();
        }

        /** Every ingest pipeline's configuration by id. */
        public Map<String, Map<String, Object>> pipelines(ClusterState state) {
            Map<String, Map<String, Object>> out = new LinkedHashMap<>();
            if (!projectResolver.hasProject(state)) {
                return out;
            }
            IngestMetadata ingest = projectResolver.getProjectMetadata(state).custom(IngestMetadata.TYPE);
            if (ingest != null) {
                for (Map.Entry<String, PipelineConfiguration> e : ingest.getPipelines().entrySet()) {
                    out.put(e.getKey(), e.getValue().getConfig());
                }
            }
            return out;
        }

        /** Every index of the project. */
        public Iterable<IndexMetadata> indices(ClusterState state) {
            return projectResolver.hasProject(state) ? projectResolver.getProjectMetadata(state) : List.of();
        }

        /** Every composable index template of the project by name. */
        public Map<String, ComposableIndexTemplate> composableTemplates(ClusterState state) {
            return projectResolver.hasProject(state) ? projectResolver.getProjectMetadata(state).templatesV2() : Map.of();
        }

        /** Every component template of the project by name. */
        public Map<String, ComponentTemplate> componentTemplates(ClusterState state) {
            return projectResolver.hasProject(state) ? projectResolver.getProjectMetadata(state).componentTemplates() : Map.of();
        }

        /** Every legacy ({@code _template}) index template of the project by name. */
        public Map<String, IndexTemplateMetadata> legacyTemplates(ClusterState state) {
            return projectResolver.hasProject(state) ? projectResolver.getProjectMetadata(state).templates() : Map.of();
        }
    }
}
