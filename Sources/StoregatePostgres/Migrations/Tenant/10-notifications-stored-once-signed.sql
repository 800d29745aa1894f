-- notifications stored once, as signed
--
-- A notification's payload is the middle part of its signed payload: stored once, it is read from
-- there. Storing its JSON again was a quarter of the time PostgreSQL took to store a notification.

ALTER TABLE {{schema}}.notifications DROP COLUMN payload
;
