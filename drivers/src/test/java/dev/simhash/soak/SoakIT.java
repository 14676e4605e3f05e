package dev.simhash.soak;

import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A short version of {@code ./run soak}: concurrent pipeline indexing and queries with no error. */
@ExtendWith(RealNodeExtension.class)
class SoakIT {

    @Test
    void twentySecondsOfMixedLoadWithoutErrors(Rest rest) throws Exception {
        Soak.setUp(rest, "soak-it");
        try {
            Soak.Options opts = new Soak.Options(Duration.ofSeconds(20), 2, 200, Duration.ofSeconds(5), 100_000);
            Soak.Result r = Soak.run(rest, "soak-it", opts, System.out);
            System.out.println(Soak.report(r, opts, "shared test node"));
            assertEquals(0, r.errors(), r.errorSamples().toString());
            assertTrue(r.docs() > 0 && r.queries() > 0, "no load: " + r);
        } finally {
            rest.delete("/soak-it");
            rest.delete("/_ingest/pipeline/soak-it-fp");
        }
    }
}
