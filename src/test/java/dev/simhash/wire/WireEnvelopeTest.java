package dev.simhash.wire;

import org.elasticsearch.TransportVersion;
import org.elasticsearch.common.io.stream.BytesStreamOutput;
import org.elasticsearch.common.io.stream.NamedWriteableAwareStreamInput;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.query.QueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.SearchModule;
import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.test.TransportVersionUtils;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.hamcrest.Matchers.containsString;

/**
 * The envelope between two plugin releases: a message of this release ({@link Note}) and of a test-only next release
 * ({@link NextNote}, one optional field appended, in a wire version above {@link WireEnvelope#CURRENT}) read each other.
 */
public class WireEnvelopeTest extends ESTestCase {

    private static final int NEXT = WireEnvelope.CURRENT + 1;
    private static final String DEFAULT_TAG = "untagged";
    private static final double DEFAULT_WEIGHT = 1.0;

    private final NamedWriteableRegistry registry = new NamedWriteableRegistry(new SearchModule(Settings.EMPTY, List.of())
        .getNamedWriteables());

    /** A message as this release writes it: a title, a count, a query (a named writeable) and nested parts. */
    record Note(String title, int count, QueryBuilder filter, List<Part> parts) implements Writeable {
        static Note read(StreamInput in) throws IOException {
            StreamInput body = WireEnvelope.read(in).in();
            return new Note(body.readString(), body.readVInt(), body.readOptionalNamedWriteable(QueryBuilder.class),
                body.readCollectionAsList(Part::read));
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            WireEnvelope.write(out, body -> {
                body.writeString(title);
                body.writeVInt(count);
                body.writeOptionalNamedWriteable(filter);
                body.writeCollection(parts);
            });
        }
    }

    /** A nested element with an envelope of its own, as this release writes it. */
    record Part(String name) implements Writeable {
        static Part read(StreamInput in) throws IOException {
            return new Part(WireEnvelope.read(in).in().readString());
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            WireEnvelope.write(out, body -> body.writeString(name));
        }
    }

    /** The nested element in the next release: a {@code weight} appended. */
    record NextPart(String name, double weight) implements Writeable {
        static NextPart read(StreamInput in) throws IOException {
            WireEnvelope.Body body = WireEnvelope.read(in);
            String name = body.in().readString();
            return new NextPart(name, body.has(NEXT) ? body.in().readDouble() : DEFAULT_WEIGHT);
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            WireEnvelope.write(out, NEXT, body -> {
                body.writeString(name);
                body.writeDouble(weight);
            });
        }
    }

    /** The same message in the next release: a {@code tag} appended, which a message of this release lacks. */
    record NextNote(String title, int count, QueryBuilder filter, List<NextPart> parts, String tag) implements Writeable {
        static NextNote read(StreamInput in) throws IOException {
            WireEnvelope.Body body = WireEnvelope.read(in);
            StreamInput b = body.in();
            String title = b.readString();
            int count = b.readVInt();
            QueryBuilder filter = b.readOptionalNamedWriteable(QueryBuilder.class);
            List<NextPart> parts = b.readCollectionAsList(NextPart::read);
            String tag = body.has(NEXT) ? b.readString() : DEFAULT_TAG;
            return new NextNote(title, count, filter, parts, tag);
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            WireEnvelope.write(out, NEXT, body -> {
                body.writeString(title);
                body.writeVInt(count);
                body.writeOptionalNamedWriteable(filter);
                body.writeCollection(parts);
                body.writeString(tag);
            });
        }
    }

    private <T> T writeThenRead(Writeable message, Writeable.Reader<T> reader) throws IOException {
        return WireTesting.roundTrip(message, registry, reader);
    }

    public void testThisReleaseReadsTheNextReleasesMessageIgnoringTheAppendedField() throws IOException {
        QueryBuilder filter = QueryBuilders.termQuery("tag", randomAlphaOfLength(5));
        String title = randomUnicodeOfLengthBetween(0, 20);
        int count = randomIntBetween(0, Integer.MAX_VALUE);
        NextNote next = new NextNote(title, count, filter, List.of(new NextPart("a", 0.5), new NextPart("b", 2)), "tagged");
        Note read = writeThenRead(next, Note::read);
        assertEquals(new Note(title, count, filter, List.of(new Part("a"), new Part("b"))), read);
    }

    public void testTheNextReleaseReadsThisReleasesMessageWithTheDefault() throws IOException {
        Note note = new Note("t", 3, QueryBuilders.existsQuery("f"), List.of(new Part("a")));
        NextNote read = writeThenRead(note, NextNote::read);
        assertEquals(new NextNote("t", 3, QueryBuilders.existsQuery("f"), List.of(new NextPart("a", DEFAULT_WEIGHT)), DEFAULT_TAG), read);
    }

    public void testEachReleaseReadsItsOwnMessage() throws IOException {
        Note note = new Note("t", 1, QueryBuilders.matchAllQuery(), List.of());
        assertEquals(note, writeThenRead(note, Note::read));
        NextNote next = new NextNote("t", 1, null, List.of(new NextPart("p", 2.0)), "x");
        assertEquals(next, writeThenRead(next, NextNote::read));
    }

    /** Many messages in a row: each reader leaves the stream exactly at the next message. */
    public void testMessagesInARowOfBothReleases() throws IOException {
        List<Note> expected = new ArrayList<>();
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            for (int i = 0; i < 20; i++) {
                String title = randomAlphaOfLength(i);
                if (randomBoolean()) {
                    new NextNote(title, i, null, List.of(), randomAlphaOfLength(i * 50)).writeTo(out);
                } else {
                    new Note(title, i, null, List.of()).writeTo(out);
                }
                expected.add(new Note(title, i, null, List.of()));
            }
            try (StreamInput in = out.bytes().streamInput()) {
                for (Note e : expected) {
                    assertEquals(e, Note.read(in));
                }
                assertEquals(0, in.available());
            }
        }
    }

    /** The body is read with the outer stream's transport version, as Elasticsearch's own writeables inside it need. */
    public void testTheBodyHasTheOuterTransportVersion() throws IOException {
        TransportVersion older = TransportVersionUtils.getPreviousVersion(TransportVersion.current());
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            out.setTransportVersion(older);
            TransportVersion[] seenByWriter = new TransportVersion[1];
            WireEnvelope.write(out, body -> seenByWriter[0] = body.getTransportVersion());
            assertEquals(older, seenByWriter[0]);
            try (StreamInput in = new NamedWriteableAwareStreamInput(out.bytes().streamInput(), registry)) {
                in.setTransportVersion(older);
                WireEnvelope.Body body = WireEnvelope.read(in);
                assertEquals(older, body.in().getTransportVersion());
                assertSame(registry, body.in().namedWriteableRegistry());
                assertEquals(WireEnvelope.CURRENT, body.version());
            }
        }
    }

    /** A message of a release before the envelope (0.2.x) starts with a plugin field, not a wire version: it is refused. */
    public void testAMessageWithoutAnEnvelopeIsRefused() throws IOException {
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            out.writeVInt(0);
            out.writeString("a field of 0.2");
            try (StreamInput in = out.bytes().streamInput()) {
                IllegalStateException e = expectThrows(IllegalStateException.class, () -> WireEnvelope.read(in));
                assertThat(e.getMessage(), containsString("unknown simhash plugin wire version [0]"));
                assertThat(e.getMessage(), containsString("0.3.0"));
            }
        }
    }

    /** {@link WireTesting#asNextRelease} appends to the outermost envelope: this release still reads every field. */
    public void testTheNextReleaseFormOfAMessage() throws IOException {
        Note note = new Note("t", 300, QueryBuilders.termQuery("a", "b"), List.of(new Part("p")));
        assertEquals(note, WireTesting.fromNextRelease(note, registry, Note::read));
        NextNote next = WireTesting.fromNextRelease(note, registry, NextNote::read);
        assertEquals("the appended bytes are the next release's field", "a field of the next release", next.tag());
    }
}
