-- reserved for customer erasure
--
-- A placeholder: the customer-erasure branch's migration 27 (signed copies nullable) takes this number.
-- The embedder wants versions without a gap, so this branch holds the place with a statement that
-- changes nothing. When the branches meet, this file is deleted and erasure's 27 stays; migration 28
-- repeats what it needs of 27 (idempotent), so either order works.

SELECT 1
;
