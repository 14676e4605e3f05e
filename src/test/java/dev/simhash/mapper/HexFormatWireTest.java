package dev.simhash.mapper;

import dev.simhash.SimHashPlugin;
import dev.simhash.wire.WireTesting;

import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.search.DocValueFormat;
import org.elasticsearch.test.ESTestCase;

import java.io.IOException;

/** The fingerprint's doc value format on the wire (sent with search results between nodes), as the plugin registers it. */
public class HexFormatWireTest extends ESTestCase {

    public void testTheFormatComesBackFromThisAndTheNextRelease() throws IOException {
        NamedWriteableRegistry registry = new NamedWriteableRegistry(new SimHashPlugin().getNamedWriteables());
        Writeable named = out -> out.writeNamedWriteable(HexFormat.INSTANCE);
        Writeable.Reader<DocValueFormat> reader = in -> in.readNamedWriteable(DocValueFormat.class);
        assertSame(HexFormat.INSTANCE, WireTesting.roundTrip(named, registry, reader));
        assertSame(HexFormat.INSTANCE, WireTesting.fromNextRelease(named, registry, reader));
    }
}
