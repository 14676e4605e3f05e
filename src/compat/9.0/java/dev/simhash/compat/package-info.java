/**
 * The compatibility layer for Elasticsearch 9.0: the few plugin APIs that differ between the supported
 * Elasticsearch lines, behind the same class names in every {@code src/compat/<line>/java}.
 */
package dev.simhash.compat;
