#!/usr/bin/env python3
"""Interleaved A/B of two plugin builds (tools/build-ab/setup.sh) on two nodes loaded with the same synthetic
near-duplicates: median times of a verified report and a verified fold, and whether both builds answer the same.
Usage: tools/build-ab/ab.py [DOCS (50000)] [ROUNDS (7)]"""
import json, random, sys, time, urllib.request

NODES = {"a": "http://127.0.0.1:19200", "b": "http://127.0.0.1:19201"}

def call(base, method, path, body=None, ndjson=False):
    data = None if body is None else (body if ndjson else json.dumps(body)).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/x-ndjson" if ndjson else "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())

def corpus(n, seed=7):
    rnd = random.Random(seed)
    vocab = ["w%05d" % i for i in range(20000)]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    texts = []
    for i in range(n):
        if texts and rnd.random() < 0.35:
            words = rnd.choice(texts).split()
            rate = rnd.uniform(0.01, 0.25)
            words = [rnd.choices(vocab, weights)[0] if rnd.random() < rate else w for w in words]
        else:
            words = rnd.choices(vocab, weights, k=rnd.randint(60, 200))
        texts.append(" ".join(words))
    return texts

def load(n):
    texts = corpus(n)
    for name, base in NODES.items():
        try:
            call(base, "DELETE", "/ab")
        except Exception:
            pass
        call(base, "PUT", "/ab", {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
                                  "mappings": {"properties": {"rank": {"type": "integer"},
                                                              "body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}})
        for start in range(0, n, 2000):
            lines = []
            for i in range(start, min(n, start + 2000)):
                lines.append(json.dumps({"index": {"_id": str(i)}}))
                lines.append(json.dumps({"rank": i, "body": texts[i]}))
            r = call(base, "POST", "/ab/_bulk", "\n".join(lines) + "\n", ndjson=True)
            assert not r["errors"], str(r)[:500]
        call(base, "POST", "/ab/_forcemerge?max_num_segments=1")
        call(base, "POST", "/ab/_refresh")

def timed(base, method, path, body):
    t0 = time.perf_counter()
    r = call(base, method, path, body)
    return (time.perf_counter() - t0) * 1000, r

def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    load(n)
    cases = {
        "report (default min_similarity)": ("POST", "/ab/_simhash/duplicates", {"field": "body.simhash", "size": 10}),
        "fold window 1000 (default min_similarity)": ("POST", "/ab/_simhash/fold?field=body.simhash&window=1000",
                                                      {"size": 10, "sort": [{"rank": "asc"}], "_source": False}),
    }
    for label, (method, path, body) in cases.items():
        times = {"a": [], "b": []}
        answers = {}
        for i in range(rounds + 1):
            order = ["a", "b"] if i % 2 == 0 else ["b", "a"]
            for name in order:
                ms, r = timed(NODES[name], method, path, body)
                if i > 0:  # the first round warms up
                    times[name].append(ms)
                r.pop("took", None); r.pop("took_ms", None); r.pop("phases_ms", None); r.pop("memory", None)
                r.pop("_shards", None); r.pop("peak_memory_bytes", None)
                answers[name] = json.dumps(r, sort_keys=True)
        same = answers["a"] == answers["b"]
        ma, mb = sorted(times["a"])[rounds // 2], sorted(times["b"])[rounds // 2]
        print(f"{label}: {n} docs, median of {rounds} interleaved: a {ma:.0f} ms, b {mb:.0f} ms, "
              f"b/a {mb / ma:.2f}; same answer: {same}", flush=True)

main()
