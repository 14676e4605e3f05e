package dev.simhash.core;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The seed of the randomized JUnit Jupiter tests, the way the Elasticsearch test framework takes it: {@code -Dtests.seed}
 * in hex ({@code 5A1B2C3D} or {@code 5A1B2C3D:0F0E}: the first part), otherwise random. As an extension
 * ({@code @ExtendWith(TestSeeds.class)}) it prefixes every failure with the command that reproduces it, e.g.
 * {@code ./run test -Dtest=CharFoldingTest -Dtests.seed=5A1B2C3D}: a class's repetitions draw their seeds in order from
 * this one, so rerunning the class with it replays the same inputs.
 */
public final class TestSeeds implements TestExecutionExceptionHandler {

    /** This JVM's seed. */
    public static final long SEED = parse(System.getProperty("tests.seed"));

    /** The seed of {@code -Dtests.seed=value}: hex, its first {@code :}-separated part; random when null or empty. */
    static long parse(String value) {
        if (value == null || value.isBlank()) {
            return new SplittableRandom().nextLong();
        }
        String first = value.strip().split(":", 2)[0];
        try {
            return Long.parseUnsignedLong(first, 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("tests.seed [" + value + "] is not a hex seed such as 5A1B2C3D or 5A1B2C3D:0F0E", e);
        }
    }

    /** The seed in the form -Dtests.seed takes, upper-case hex as Elasticsearch prints it. */
    public static String hex(long seed) {
        return Long.toHexString(seed).toUpperCase(Locale.ROOT);
    }

    /** A class's seed sequence: its repetitions take the next seed each. */
    public static AtomicLong sequence() {
        return new AtomicLong(SEED);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        if (failure instanceof TestAbortedException) {
            throw failure;
        }
        throw new AssertionError("reproduce with: ./run test -Dtest=" + context.getRequiredTestClass().getSimpleName()
            + " -Dtests.seed=" + hex(SEED) + " (" + failure + ")", failure);
    }
}
