package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EditRecallTest {

    @Test
    void recallPerRadiusOfAHandCheckedExample() {
        EditRecall e = new EditRecall(0.05);
        e.add(0, 1);
        e.add(2, 2);
        e.add(5, 3);
        e.add(-1, 2); // the copy has no fingerprint: never found
        assertEquals(4, e.copies());
        assertEquals(1, e.withoutFingerprint());
        assertEquals(2.0, e.meanEdits(), 0);
        assertEquals(0.25, e.recall(0), 0);
        assertEquals(0.25, e.recall(1), 0);
        assertEquals(0.5, e.recall(2), 0);
        assertEquals(0.5, e.recall(4), 0);
        assertEquals(0.75, e.recall(5), 0);
        assertEquals(0.75, e.recall(64), 0);
        // sorted: 0, 2, 5, none -> the lower median (2nd) is 2
        assertEquals(2, e.medianDistance());
    }

    @Test
    void medianWithMostCopiesUnfingerprintedIsUnknown() {
        EditRecall e = new EditRecall(0.1);
        e.add(-1, 1);
        e.add(-1, 1);
        e.add(3, 1);
        assertEquals(-1, e.medianDistance());
        EditRecall empty = new EditRecall(0.1);
        assertEquals(-1, empty.medianDistance());
        assertTrue(Double.isNaN(empty.recall(3)));
    }

    @Test
    void distancesOutOfRangeAreRefused() {
        EditRecall e = new EditRecall(0.1);
        assertThrows(IllegalArgumentException.class, () -> e.add(65, 1));
        assertThrows(IllegalArgumentException.class, () -> e.add(-2, 1));
    }
}
