package dev.simhash.request;

import org.elasticsearch.xcontent.ObjectParser;
import org.elasticsearch.xcontent.XContentParseException;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;

/**
 * Parses a body with its {@link ObjectParser} declarations (which carry the fields' types) in the plugin's one error style:
 * every error names the field in brackets, e.g. {@code [simhash] failed to parse field [hash]}, with the location.
 */
public final class Declarations {

    private Declarations() {}

    /** Parses a new value from the declarations. */
    public static <T, C> T parse(ObjectParser<T, C> declarations, XContentParser parser, C context) throws IOException {
        try {
            return declarations.parse(parser, context);
        } catch (XContentParseException e) {
            throw namingTheField(declarations, parser, e);
        }
    }

    /** Parses into {@code value}. */
    public static <T, C> T parse(ObjectParser<T, C> declarations, XContentParser parser, T value, C context) throws IOException {
        try {
            return declarations.parse(parser, value, context);
        } catch (XContentParseException e) {
            throw namingTheField(declarations, parser, e);
        }
    }

    /**
     * A value of a type its declaration does not take is refused by ObjectParser before any field parser runs, with the
     * field's name unbracketed; it becomes the error every other bad value of that field gives, with ObjectParser's as cause.
     */
    private static XContentParseException namingTheField(ObjectParser<?, ?> declarations, XContentParser parser, XContentParseException e)
        throws IOException {
        if (e.getCause() != null) {
            return e;
        }
        String field = parser.currentName();
        if (field == null || e.getMessage().contains("[" + field + "]")) {
            return e;
        }
        return new XContentParseException(e.getLocation(), "[" + declarations.getName() + "] failed to parse field [" + field + "]", e);
    }
}
