"""Prints the simhash-v2 phrase table: OpenCC TWPhrasesRev entries (first candidate), key and value folded
as step 1 of simhash-v2 folds text (NFKC, simple lowercase per code point, char-folding-v2.tsv), entries
whose folded key and value differ, sorted by the UTF-8 bytes of the key (= code point order).
Usage: phrases.py CHAR_TABLE TWPhrasesRev.txt"""
import sys
import unicodedata

table = {}
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        a, b = line.rstrip("\n").split("\t")
        table[a] = b


def lower(c):
    # simple lowercase mapping: one code point to one (str.lower() may give several: keep the character then)
    low = c.lower()
    return low if len(low) == 1 else c


def fold(s):
    return "".join(table.get(lower(c), lower(c)) for c in unicodedata.normalize("NFKC", s))


out = {}
with open(sys.argv[2], encoding="utf-8") as f:
    for line in f:
        k, v = line.rstrip("\n").split("\t")
        fk, fv = fold(k), fold(v.split(" ")[0])
        if fk != fv and fk not in out:
            out[fk] = fv
for k in sorted(out, key=lambda s: s.encode("utf-8")):
    print(k + "\t" + out[k])
