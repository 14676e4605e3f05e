package dev.simhash.threshold;

import dev.simhash.core.MinHashSketch;
import dev.simhash.request.FingerprintMappings;
import dev.simhash.request.FingerprintMappings.Fingerprints;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.action.fieldcaps.TransportFieldCapabilitiesAction;
import org.elasticsearch.action.support.ContextPreservingActionListener;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.common.util.concurrent.ThreadContext;

import java.util.Collection;
import java.util.List;

/**
 * Decides how fold and report link documents once the fingerprint field is known: with a {@code min_similarity} given,
 * every target index must store similarity sketches (else a 400 naming the indices); with neither {@code min_similarity}
 * nor {@code max_distance}, {@link MinHashSketch#DEFAULT_MIN_SIMILARITY} when every target index stores sketches, else the
 * radius of the field's version; with {@code max_distance}, the radius alone.
 */
public final class ThresholdChoice {

    private ThresholdChoice() {}

    /**
     * Completes {@code listener} with the verification to apply, or null when the radius alone decides.
     *
     * @param caps        the merged field capabilities the fingerprint field was checked with
     * @param given       the {@code min_similarity} given, or null
     * @param radiusGiven whether {@code max_distance} was given
     */
    public static void resolve(Client client, ThreadContext threadContext, String[] targets, IndicesOptions options, FieldCapabilitiesResponse caps,
                        Fingerprints fingerprints, String field, Double given, boolean radiusGiven, ActionListener<Verification> listener) {
        if (given == null && radiusGiven) {
            listener.onResponse(null);
            return;
        }
        if (!FingerprintMappings.someHaveSketch(caps, fingerprints, field)) {
            if (given == null) {
                // no sketch anywhere: the version's radius, as before sketches existed
                listener.onResponse(null);
            } else {
                listener.onFailure(noSketch(fingerprints, field, List.of()));
            }
            return;
        }
        // merged meta is a union: whether every index stores sketches needs the capabilities index by index
        client.execute(TransportFieldCapabilitiesAction.TYPE, FingerprintMappings.sketchRequest(targets, options, field),
            ContextPreservingActionListener.wrapPreservingContext(listener.delegateFailureAndWrap((l, unmerged) -> {
                List<String> without = FingerprintMappings.indicesWithoutSketch(unmerged, field);
                if (given == null) {
                    // neither threshold given: the default threshold where every index has sketches, else the version's radius
                    l.onResponse(without.isEmpty() ? Verification.of(MinHashSketch.DEFAULT_MIN_SIMILARITY) : null);
                    return;
                }
                if (!without.isEmpty()) {
                    throw noSketch(fingerprints, field, without);
                }
                l.onResponse(Verification.of(given));
            }), threadContext));
    }

    /**
     * The 400 of a {@code min_similarity} on a field without sketches: the object form, or a {@code simhash} field whose
     * {@code sketch} is {@code none} in {@code without} (empty: in every target index).
     */
    static IllegalArgumentException noSketch(Fingerprints fingerprints, String field, Collection<String> without) {
        if (!fingerprints.isFieldType()) {
            return Thresholds.noSketches(field, null, Thresholds.PROCESSOR_OBJECT_HAS_NO_SKETCH);
        }
        return Thresholds.noSketches(field, "in " + (without.isEmpty() ? "the target indices" : "indices " + without),
            "its [sketch] is [none], and every target index must store them");
    }
}
