/**
 * The compatibility layer for Elasticsearch 9.5 (the default line): the few plugin APIs that differ between the
 * supported Elasticsearch lines, behind the same class names in every {@code src/compat/<line>/java}. Everything
 * else in the plugin is written against the APIs all lines share.
 */
package dev.simhash.compat;
