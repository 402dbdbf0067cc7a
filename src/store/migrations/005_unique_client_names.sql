-- A client's name is unique within its project, compared without case and without surrounding
-- spaces: a person tells clients apart by name (`client list`, the portal), and "Billing" beside
-- "billing " reads as one client. The index, not a check before the insert, decides: of two
-- replicas creating the same name at once, the second insert fails.
-- Where a project already holds such duplicates, the oldest keeps its name and every later one
-- gets its client id appended, "billing (cli_...)": client ids are unique, so the new names are.
UPDATE oauth_clients later
   SET name = left(btrim(later.name), 200 - char_length(later.client_id) - 3) || ' (' || later.client_id || ')'
 WHERE EXISTS (
   SELECT 1
     FROM oauth_clients older
    WHERE older.project_id = later.project_id
      AND lower(btrim(older.name)) = lower(btrim(later.name))
      AND (older.created_at, older.client_id) < (later.created_at, later.client_id)
 );
CREATE UNIQUE INDEX oauth_clients_project_name ON oauth_clients (project_id, lower(btrim(name)));
