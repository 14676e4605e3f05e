package dev.simhash.wire;

import dev.simhash.wire.WireTesting;

import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.search.SearchModule;

import java.io.IOException;
import java.util.List;

import static org.junit.Assert.assertEquals;

/** Copies of a fold or report message as this release and as the next one would send it, for the wire format tests. */
public final class WireCopies {

    // the queries and sorts a fold or report request can carry
    private static final NamedWriteableRegistry REGISTRY = new NamedWriteableRegistry(new SearchModule(Settings.EMPTY, List.of())
        .getNamedWriteables());

    private WireCopies() {}

    /** Both copies carry the same fields as the original: they write the same bytes. */
    public static <T extends Writeable> List<T> copies(T original, Writeable.Reader<T> reader) throws IOException {
        T copy = WireTesting.roundTrip(original, REGISTRY, reader);
        T fromNext = WireTesting.fromNextRelease(original, REGISTRY, reader);
        assertEquals(WireTesting.write(original), WireTesting.write(copy));
        assertEquals(WireTesting.write(original), WireTesting.write(fromNext));
        return List.of(copy, fromNext);
    }
}
