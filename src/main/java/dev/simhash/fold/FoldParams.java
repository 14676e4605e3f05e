package dev.simhash.fold;

import dev.simhash.core.SimHash;
import dev.simhash.request.Params;
import dev.simhash.request.RestParams;
import dev.simhash.threshold.Thresholds;
import dev.simhash.threshold.Verification;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.rest.RestRequest;

import java.io.IOException;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * The fold parameters, validated: the fingerprint field, the fold radius, the similarity threshold, the window of hits
 * folded and the members listed per representative; {@code windowGiven} tells an explicit {@code window} from the default,
 * {@code maxDistanceGiven} an explicit {@code max_distance} from the field's default (resolved by
 * {@link #withDefaultMaxDistance} once the field's version is known). {@code minSimilarity} is the threshold the fold
 * verifies candidates with (null: none, the radius alone decides); {@code maxDistance} is then its candidate radius.
 */
record FoldParams(String field, int maxDistance, boolean maxDistanceGiven, Double minSimilarity, boolean minSimilarityGiven, int window,
                  boolean windowGiven, int members) implements Writeable {

    /** The radius until the field's version default replaces it (simhash-v1's, the object form's). */
    static final int DEFAULT_MAX_DISTANCE = SimHash.DEFAULT_MAX_DISTANCE;
    static final int DEFAULT_WINDOW = 100;
    static final int MAX_WINDOW = 10_000;
    static final int DEFAULT_MEMBERS = 0;
    static final int MAX_MEMBERS = 100;

    /**
     * Reads the URL parameters with the request's typed readers (a value of the wrong type is a 400 naming its
     * parameter), then checks their ranges.
     */
    static FoldParams from(RestRequest request) {
        String field = Params.required("field", request.param("field"), Params.FIELD_HINT);
        boolean maxDistanceGiven = request.hasParam(Thresholds.MAX_DISTANCE);
        int maxDistance = Thresholds.maxDistance(request, DEFAULT_MAX_DISTANCE, SimHash.BITS);
        Double minSimilarity = Thresholds.minSimilarity(request);
        Thresholds.checkNotBoth(minSimilarity, maxDistanceGiven ? maxDistance : null);
        boolean windowGiven = request.hasParam("window");
        int window = Params.checkRange("window", RestParams.integer(request, "window", DEFAULT_WINDOW), 1, MAX_WINDOW);
        int members = Params.checkRange("members", RestParams.integer(request, "members", DEFAULT_MEMBERS), 0, MAX_MEMBERS);
        FoldParams fold = new FoldParams(field, maxDistance, maxDistanceGiven, null, false, window, windowGiven, members);
        return minSimilarity != null ? fold.withVerification(Verification.of(minSimilarity), true) : fold;
    }

    /** These parameters verifying with {@code v}: its threshold and its candidate radius. */
    FoldParams withVerification(Verification v, boolean given) {
        return new FoldParams(field, v.radius(), false, v.minSimilarity(), given, window, windowGiven, members);
    }

    /** The verification of the threshold, or null when the fold uses the radius alone. */
    Verification verification() {
        return minSimilarity == null ? null : Verification.of(minSimilarity);
    }

    /**
     * These parameters with the field's default radius unless {@code max_distance} was given; the default is only asked
     * for when needed, because indices of mixed versions have none (an explicit radius must still work there).
     */
    FoldParams withDefaultMaxDistance(IntSupplier defaultMaxDistance) {
        return maxDistanceGiven || minSimilarity != null ? this
            : new FoldParams(field, defaultMaxDistance.getAsInt(), false, null, false, window, windowGiven, members);
    }

    static FoldParams readFrom(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        return new FoldParams(body.readString(), body.readVInt(), body.readBoolean(), body.readOptionalDouble(), body.readBoolean(),
            body.readVInt(), body.readBoolean(), body.readVInt());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeString(field);
            body.writeVInt(maxDistance);
            body.writeBoolean(maxDistanceGiven);
            body.writeOptionalDouble(minSimilarity);
            body.writeBoolean(minSimilarityGiven);
            body.writeVInt(window);
            body.writeBoolean(windowGiven);
            body.writeVInt(members);
        });
    }

    /**
     * The window the inner search can serve, given the smallest {@code index.max_result_window} of its indices: the
     * default shrinks to it; an explicit window above it is the caller's error, as {@code from + size} is in _search.
     */
    FoldParams fitTo(ResultWindow limit) {
        if (window <= limit.size()) {
            return this;
        }
        if (windowGiven) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "[window] must be at most [%d], the "
                + "[index.max_result_window] of index [%s], got [%d]: the fold searches the first [window] hits; lower [window] "
                + "or raise the index setting", limit.size(), limit.index(), window));
        }
        return new FoldParams(field, maxDistance, maxDistanceGiven, minSimilarity, minSimilarityGiven, limit.size(), false, members);
    }
}
