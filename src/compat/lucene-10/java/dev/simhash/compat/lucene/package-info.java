/**
 * The compatibility layer for Lucene 10 (Elasticsearch 9.x): the few search and scoring APIs that differ from
 * Lucene 9, behind the same class names in {@code src/compat/lucene-<major>/java}.
 */
package dev.simhash.compat.lucene;
