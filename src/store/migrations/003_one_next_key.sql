-- At most one key waits to be promoted. Replicas starting or rotating together could each insert
-- one, and the keys the issuer never promotes (it takes the newest) stayed published for good.
-- With this index the second insert fails and that replica reloads the key set, as for the
-- active key. Where that already happened, the newest next key stays and the others are retired:
-- published for another hour like any retired key (none of them signed a token), then removed.
UPDATE signing_keys
   SET status = 'retired', retired_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint
 WHERE status = 'next'
   AND kid <> (SELECT kid FROM signing_keys WHERE status = 'next' ORDER BY created_at DESC, kid LIMIT 1);
CREATE UNIQUE INDEX signing_keys_one_next ON signing_keys (status) WHERE status = 'next';
