package dev.simhash.core;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.security.MessageDigest;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Cross-line identity: 100,000 random texts of every kind {@link RandomUnicodeTexts} makes give, on this Elasticsearch
 * line (its Lucene, its smartcn), exactly the simhash-v1 and simhash-v2 fingerprints and minhash-v1 sketches pinned in
 * the repository. CI runs it on every supported line; a difference names the first text whose values differ.
 */
class CrossLineDigestTest {

    @Test
    void everyTextFingerprintsAsPinned() {
        CrossLineDigest.Pinned pinned = CrossLineDigest.load();
        // the JDK's Unicode data drive NFKC and lowercasing: values were pinned on one Unicode version (CI's JDK)
        Assumptions.assumeTrue(pinned.unicode().equals(CrossLineDigest.jdkUnicode()),
            "digest pinned with Unicode " + pinned.unicode() + " character data; this JDK has " + CrossLineDigest.jdkUnicode());
        RandomUnicodeTexts texts = new RandomUnicodeTexts(CrossLineDigest.SEED);
        MessageDigest digest = CrossLineDigest.sha256();
        int firstDiffering = -1;
        for (int i = 0; i < CrossLineDigest.TEXTS; i++) {
            byte[] v = CrossLineDigest.values(texts.text(i));
            digest.update(v);
            int pinnedCheck = (pinned.checks()[2 * i] & 0xFF) << 8 | pinned.checks()[2 * i + 1] & 0xFF;
            if (firstDiffering < 0 && CrossLineDigest.check(v) != pinnedCheck) {
                firstDiffering = i;
            }
        }
        String actual = HexFormat.of().formatHex(digest.digest());
        if (!actual.equals(pinned.sha256())) {
            String text = firstDiffering < 0 ? null : texts.text(firstDiffering);
            fail("fingerprints or sketches differ from the pinned ones on this line (digest " + actual + ", pinned "
                + pinned.sha256() + "); first differing text: "
                + (text == null ? "(not found by the 16-bit checks)" : "#" + firstDiffering + " " + codePoints(text)));
        }
        assertEquals(-1, firstDiffering, "the digest matches but the per-text checks do not: the check file is stale");
    }

    @Test
    void theCorpusHoldsWhatItPromises() {
        RandomUnicodeTexts texts = new RandomUnicodeTexts(CrossLineDigest.SEED);
        assertEquals(texts.text(12345), new RandomUnicodeTexts(CrossLineDigest.SEED).text(12345), "deterministic");
        assertNotEquals(texts.text(1), texts.text(2));
        int han = 0, supplementaryHan = 0, zwj = 0, combining = 0, privateUse = 0, unassigned = 0, loneSurrogate = 0, longToken = 0,
            emojiModifier = 0, over64Tokens = 0, noFingerprint = 0;
        for (int i = 0; i < 5000; i++) {
            String t = texts.text(i);
            int run = 0;
            for (int k = 0; k < t.length(); ) {
                int cp = t.codePointAt(k);
                han += Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN ? 1 : 0;
                supplementaryHan += cp >= 0x20000 && cp <= 0x323AF ? 1 : 0;
                zwj += cp == 0x200D ? 1 : 0;
                combining += Character.getType(cp) == Character.NON_SPACING_MARK ? 1 : 0;
                privateUse += Character.getType(cp) == Character.PRIVATE_USE ? 1 : 0;
                unassigned += !Character.isDefined(cp) ? 1 : 0;
                loneSurrogate += Character.isSurrogate(t.charAt(k)) && Character.charCount(cp) == 1 ? 1 : 0;
                emojiModifier += cp >= 0x1F3FB && cp <= 0x1F3FF ? 1 : 0;
                run = Character.isLetter(cp) ? run + 1 : 0;
                longToken += run == 300 ? 1 : 0;
                k += Character.charCount(cp);
            }
            over64Tokens += SimHashV2.tokens(t).size() >= 64 ? 1 : 0;
            noFingerprint += SimHashV2.fingerprint(t, 1).isEmpty() ? 1 : 0;
        }
        for (int count : new int[] {han, supplementaryHan, zwj, combining, privateUse, unassigned, loneSurrogate, longToken, emojiModifier}) {
            assertTrue(count > 50, "every kind of character occurs in the first 5,000 texts");
        }
        assertTrue(over64Tokens > 500 && over64Tokens < 2500, "texts on both sides of the sketch's 64-token switch: " + over64Tokens);
        assertTrue(noFingerprint > 0, "some texts have no v2 feature (only breaks and unsupported characters)");
    }

    private static String codePoints(String text) {
        StringBuilder sb = new StringBuilder();
        text.codePoints().limit(200).forEach(cp -> sb.append(sb.length() == 0 ? "" : " ").append(String.format(java.util.Locale.ROOT, "U+%04X", cp)));
        return sb + (text.codePointCount(0, text.length()) > 200 ? " ..." : "");
    }
}
