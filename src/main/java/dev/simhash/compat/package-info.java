/**
 * The compatibility layer: the few plugin APIs that differ between the supported Elasticsearch lines, behind the same
 * class names in every directory of {@code src/compat}. Each line compiles with the directories {@code es-versions}
 * lists for it (a major's, a range of lines' such as {@code until-9.3} or {@code since-9.1}, or the line's own); each
 * class is in exactly one of them. Everything else in the plugin is written against the APIs all lines share.
 */
package dev.simhash.compat;
