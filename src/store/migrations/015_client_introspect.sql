-- A client may be allowed to ask POST /oauth/introspect (RFC 7662) whether a token is active: a
-- permission an operator grants, off for every existing and new client unless asked for.
ALTER TABLE oauth_clients ADD COLUMN introspect boolean NOT NULL DEFAULT false;
