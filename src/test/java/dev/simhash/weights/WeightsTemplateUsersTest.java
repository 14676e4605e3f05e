package dev.simhash.weights;

import org.elasticsearch.cluster.metadata.ComponentTemplate;
import org.elasticsearch.cluster.metadata.ComposableIndexTemplate;
import org.elasticsearch.cluster.metadata.IndexTemplateMetadata;
import org.elasticsearch.cluster.metadata.Template;
import org.elasticsearch.common.compress.CompressedXContent;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Index templates (composable, component, legacy) whose mappings use a table are named, in the form the 409 lists them. */
class WeightsTemplateUsersTest {

    private static final String BODY = "{\"properties\": {\"body\": {\"type\": \"text\", \"fields\": {\"simhash\": "
        + "{\"type\": \"simhash\", \"version\": \"v2\", \"weights\": \"idf\"}}}}}";
    private static final String DYNAMIC = "{\"dynamic_templates\": [{\"texts\": {\"match_mapping_type\": \"string\", \"mapping\": "
        + "{\"type\": \"text\", \"fields\": {\"fp\": {\"type\": \"simhash\", \"weights\": \"idf\"}}}}}, "
        + "{\"others\": {\"match\": \"x*\", \"mapping\": {\"type\": \"simhash\", \"weights\": \"other\"}}}]}";
    private static final String UNRELATED = "{\"properties\": {\"title\": {\"type\": \"simhash\", \"weights\": \"other\"}}}";

    /** Stored as Elasticsearch stores template mappings: under {@code _doc}. */
    private static CompressedXContent stored(String mapping) throws IOException {
        return new CompressedXContent("{\"_doc\": " + mapping + "}");
    }

    private static ComposableIndexTemplate composable(CompressedXContent mappings) {
        return ComposableIndexTemplate.builder().indexPatterns(List.of("logs-*"))
            .template(new Template(null, mappings, null)).componentTemplates(List.of("c1")).build();
    }

    private static ComponentTemplate component(CompressedXContent mappings) {
        return new ComponentTemplate(new Template(null, mappings, null), null, null);
    }

    @Test
    void everyKindOfTemplateIsNamedWithItsFields() throws IOException {
        Map<String, ComposableIndexTemplate> composable = Map.of(
            "t-b", composable(stored(BODY)),
            "t-a", composable(new CompressedXContent(DYNAMIC)), // also without the type wrapper
            "t-none", ComposableIndexTemplate.builder().indexPatterns(List.of("x-*")).build(), // no template at all
            "t-settings", composable(null)); // a template without mappings
        Map<String, ComponentTemplate> components = Map.of("c1", component(stored(BODY)), "c2", component(stored(UNRELATED)));
        Map<String, IndexTemplateMetadata> legacy = Map.of(
            "l1", IndexTemplateMetadata.builder("l1").patterns(List.of("old-*")).putMapping("_doc", "{\"_doc\": " + DYNAMIC + "}").build(),
            "l2", IndexTemplateMetadata.builder("l2").patterns(List.of("older-*")).build());

        assertEquals(List.of(
                "index template [t-a] dynamic template [texts]",
                "index template [t-b] field [body.simhash]",
                "component template [c1] field [body.simhash]",
                "legacy template [l1] dynamic template [texts]"),
            TransportDeleteWeightsAction.templateUsers(composable, components, legacy, "idf"));
        assertEquals(List.of(
                "index template [t-a] dynamic template [others]",
                "component template [c2] field [title]",
                "legacy template [l1] dynamic template [others]"),
            TransportDeleteWeightsAction.templateUsers(composable, components, legacy, "other"));
        assertEquals(List.of(), TransportDeleteWeightsAction.templateUsers(composable, components, legacy, "unused"));
        assertEquals(List.of(), TransportDeleteWeightsAction.templateUsers(Map.of(), Map.of(), Map.of(), "idf"));
    }
}
