/**
 * Subnet routes and exit routes: prefixes as nodes advertise and administrators approve them, and which router
 * serves each subnet route (high availability). Pure functions over nodes; the state services store and publish.
 * The policy's auto-approvers are the policy's to read and apply ({@code policy.AutoApproval}).
 */
package io.meshcontrol.core.routes;
