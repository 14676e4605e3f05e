/**
 * The compatibility layer for Lucene 9 (Elasticsearch 8.19): the few search and scoring APIs that differ from
 * Lucene 10, behind the same class names in {@code src/compat/lucene-<major>/java}.
 */
package dev.simhash.compat.lucene;
