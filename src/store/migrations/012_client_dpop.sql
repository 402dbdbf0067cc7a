-- A client can be made to use DPoP (RFC 9449): the token endpoint then refuses its requests that
-- carry no proof, so every token it gets is bound to a key it holds.
ALTER TABLE oauth_clients ADD COLUMN require_dpop boolean NOT NULL DEFAULT false;
