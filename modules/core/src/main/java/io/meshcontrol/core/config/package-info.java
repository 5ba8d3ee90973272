/**
 * Typed configuration: {@code config.yaml} plus {@code SVC_} environment overrides, checked against one declared
 * schema, with every bad key named.
 *
 * <p>Entry point: {@link io.meshcontrol.core.config.ConfigLoader#load}. Result: {@link io.meshcontrol.core.config.MeshConfig}.
 * The keys, their defaults and descriptions: {@link io.meshcontrol.core.config.ConfigSchema}. User documentation:
 * {@code docs/configuration.md}; every key with its default: {@code config.yaml.example}.
 */
package io.meshcontrol.core.config;
