-- A client's generation: an integer that a disable raises, carried in every token as `client_gen`.
-- A disable's revocation entry records the new generation, and verifiers refuse every token of
-- the client carrying a lower one. Unlike a cut-off in epoch seconds it neither depends on the
-- clock's resolution (disable, enable, a new token and a second disable inside one second) nor on
-- replicas' clocks agreeing. Existing clients start at 0; existing entries keep their seconds
-- cut-off (generation null), which still covers every token by its issue time.
ALTER TABLE oauth_clients ADD COLUMN generation bigint NOT NULL DEFAULT 0 CHECK (generation >= 0);
ALTER TABLE revocations ADD COLUMN generation bigint
  CHECK (generation IS NULL OR (kind = 'client' AND generation > 0));
