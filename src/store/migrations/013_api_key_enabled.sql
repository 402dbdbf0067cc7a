-- An API key can be disabled and enabled again, as an OAuth client can: a disabled key's calls
-- are refused until it is enabled. Keys that exist now stay enabled.
ALTER TABLE api_keys ADD COLUMN enabled boolean NOT NULL DEFAULT true;
