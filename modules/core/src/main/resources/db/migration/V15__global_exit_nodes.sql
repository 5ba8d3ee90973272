-- Global exit nodes: NULL while a node is not marked; when marked, the mark's priority (0 or more, higher preferred).
-- One nullable column rather than a flag and a number: clearing the mark resets the priority by itself.
ALTER TABLE nodes ADD COLUMN global_exit_priority INTEGER;
