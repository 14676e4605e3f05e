package dev.simhash.duplicates;

import dev.simhash.core.SimHash;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

import static org.elasticsearch.action.ValidateActions.addValidationError;

/**
 * A request naming one stored report by id. The report's indices are known only once its record is read, so the action
 * level check (an {@code indices:data/read/*} action over all indices, narrowed by security to the caller's) only
 * admits callers with read access to some index; the transport action then checks read access to every index of the
 * report, as the caller.
 */
public abstract class ReportIdRequest extends ActionRequest implements IndicesRequest.Replaceable {

    // lenient: security replaces the wildcard with the indices the caller may read, possibly none
    private static final IndicesOptions OPTIONS = IndicesOptions.fromOptions(true, true, true, false);

    private final String id;
    private String[] indices = new String[] { "*" };

    protected ReportIdRequest(String id) {
        this.id = Objects.requireNonNull(id);
    }

    protected ReportIdRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        this.id = body.readString();
        this.indices = body.readStringArray();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            body.writeString(id);
            body.writeStringArray(indices);
        });
    }

    public String id() {
        return id;
    }

    @Override
    public String[] indices() {
        return indices;
    }

    @Override
    public IndicesRequest indices(String... indices) {
        this.indices = Objects.requireNonNull(indices);
        return this;
    }

    @Override
    public IndicesOptions indicesOptions() {
        return OPTIONS;
    }

    /** The length of a report id: a random UUID in base64url without padding. */
    static final int ID_LENGTH = 22;

    /**
     * Whether the id has the form of a report id: {@value #ID_LENGTH} base64url characters, or, for a report stored by an
     * earlier release, its task's id ({@code <node id>:<number>}).
     */
    static boolean wellFormed(String id) {
        if (id.length() == ID_LENGTH && id.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_'))) {
            return true;
        }
        int colon = id.lastIndexOf(':');
        if (colon <= 0 || colon == id.length() - 1) {
            return false;
        }
        for (int i = colon + 1; i < id.length(); i++) {
            if (Character.isDigit(id.charAt(i)) == false) {
                return false;
            }
        }
        return id.length() <= 64 && id.length() - colon - 1 <= 18;
    }

    @Override
    public ActionRequestValidationException validate() {
        if (wellFormed(id) == false) {
            return addValidationError("[id] must be a report id as returned by the report (" + ID_LENGTH + " characters), got ["
                + SimHash.abbreviate(id) + "]", null);
        }
        return null;
    }

    @Override
    public String getDescription() {
        return "simhash report [" + id + "]";
    }

    // a get and a delete of the same report are different requests
    @Override
    public boolean equals(Object o) {
        return o != null && getClass() == o.getClass() && id.equals(((ReportIdRequest) o).id)
            && Arrays.equals(indices, ((ReportIdRequest) o).indices);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getClass(), id, Arrays.hashCode(indices));
    }
}
