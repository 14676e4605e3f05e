package dev.simhash.it.support;

import java.nio.file.Path;

/** Finds the JDK the test nodes run on: the one running the build, which must be 21 or newer. */
final class JavaHomes {

    private JavaHomes() {}

    static Path current() {
        int feature = Runtime.version().feature();
        if (feature < 21) {
            throw new IllegalStateException("Elasticsearch 9 needs Java 21+, but the build runs on Java " + feature
                + ": set JAVA_HOME to a JDK >= 21 (the ./run script does this)");
        }
        return Path.of(System.getProperty("java.home"));
    }
}
