/**
 * Subnet routes and exit routes: prefixes as nodes advertise and administrators approve them, which router serves
 * each subnet route (high availability), and the policy's auto-approvers. Pure functions over nodes; the state
 * services store and publish.
 */
package io.meshcontrol.core.routes;
