package dev.simhash.core;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The seed is read the way the Elasticsearch test framework prints it. */
class TestSeedsTest {

    @Test
    void hexSeedsAsElasticsearchPrintsThem() {
        assertEquals(0xDEADBEEFL, TestSeeds.parse("DEADBEEF"));
        assertEquals(0xDEADBEEFL, TestSeeds.parse("deadbeef:1234ABCD"), "a method seed after ':' is not the class's seed");
        assertEquals(0x8000000000000001L, TestSeeds.parse("8000000000000001"), "64-bit seeds, unsigned");
        assertEquals("8000000000000001", TestSeeds.hex(0x8000000000000001L));
        assertEquals(0xDEADBEEFL, TestSeeds.parse(TestSeeds.hex(0xDEADBEEFL)));
    }

    @Test
    void aDecimalOrBrokenSeedIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> TestSeeds.parse("12x"));
        assertThrows(IllegalArgumentException.class, () -> TestSeeds.parse("-5"));
    }
}
