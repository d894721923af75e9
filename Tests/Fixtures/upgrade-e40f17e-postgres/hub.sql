--
-- PostgreSQL database dump
--

\restrict RoDftfpzAihUZLGRActMMdzobXnHTKGVevTpCRP2YEsvjG0QUAonWmNVwU70sMO

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: journal_hub; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA journal_hub;


--
-- Name: refuse_change(); Type: FUNCTION; Schema: journal_hub; Owner: -
--

CREATE FUNCTION journal_hub.refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'the journal hub is append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END
$$;


--
-- Name: ring(); Type: FUNCTION; Schema: journal_hub; Owner: -
--

CREATE FUNCTION journal_hub.ring() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('journal_hub', NEW.device::text);
    RETURN NULL;
END
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: hub; Type: TABLE; Schema: journal_hub; Owner: -
--

CREATE TABLE journal_hub.hub (
    singleton boolean DEFAULT true NOT NULL,
    hub_id text NOT NULL,
    format integer NOT NULL,
    key_check text NOT NULL,
    made_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT hub_singleton_check CHECK (singleton)
);


--
-- Name: schema_version; Type: TABLE; Schema: journal_hub; Owner: -
--

CREATE TABLE journal_hub.schema_version (
    singleton boolean DEFAULT true NOT NULL,
    version integer NOT NULL,
    CONSTRAINT schema_version_singleton_check CHECK (singleton)
);


--
-- Name: segments; Type: TABLE; Schema: journal_hub; Owner: -
--

CREATE TABLE journal_hub.segments (
    device uuid NOT NULL,
    first_position bigint NOT NULL,
    last_position bigint NOT NULL,
    bytes bytea NOT NULL,
    written_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT segments_check CHECK ((last_position >= first_position)),
    CONSTRAINT segments_first_position_check CHECK ((first_position >= 1))
);


--
-- Data for Name: hub; Type: TABLE DATA; Schema: journal_hub; Owner: -
--

COPY journal_hub.hub (singleton, hub_id, format, key_check, made_at) FROM stdin;
t	23d82f10-3e2d-49fc-a1f1-df3ef8abb577	1	727c7a78486848c7c5624536cd54fd0d	2026-11-25 02:00:24.536998+00
\.


--
-- Data for Name: schema_version; Type: TABLE DATA; Schema: journal_hub; Owner: -
--

COPY journal_hub.schema_version (singleton, version) FROM stdin;
t	1
\.


--
-- Data for Name: segments; Type: TABLE DATA; Schema: journal_hub; Owner: -
--

COPY journal_hub.segments (device, first_position, last_position, bytes, written_at) FROM stdin;
8c30ee63-f5dd-4b6c-8299-7a8e0e5041ce	1	2	\\x4a53454701c7dfe63c8276dd7da06783eeee5444403ab370aafa32bc47d9ad79b3a361e4295b02c8e8a7f00133340ed690b2e63ff097604c51da005ef4843a5fa235983a36856f57850b550a16de57c57bc8a185a8ab7cf7ed508d053973fc7e7988af4469ddb100ed95753b460a90251615a4560752918d5c5e8770bb8746d217c2ba9277bb6e0147138ee53e15e3123421119e30aa847b72dbd89b10d1a4b55924f56016de05fce71c8b45269dbecebe1de3f84d5acce0ff77bfb843c6d0eb300db97897a9a748bd247a6bdc9bfed4943d04e65e5b18fc2b483bdc45ce439fb26f4fc02a2b54c1d3cfbf28642d7e02e7c5a4e76d18605c12e15ed55287930e053385a644a3cbdb21ba786fdadc24e4ece465b16b4763cc116adf829fa81862b9788af85e22a6a99cc9f678bf2c4cc5aa9a2c58a73ea92c448f373d5a338ffd7bd49079a4852368d11d9d4115ff	2026-11-25 02:00:24.689658+00
5a14b97b-37a1-4c8a-b4b1-b82047a28a1b	1	2	\\x4a53454702c9762453ea60e001cf5f9828e59d7f37f371f906ecb15c7895e1eaec1f62b18dd7238b885bd230a46842f5277efcc582e0478c97a9d5c62662c8c39fbefcad8b3bcdbb9346368d3b45902d7847cc0fbe30f1f65da752d55aea3a834f35055e254ede196193cb21cf3e02dbdb60a1e73ecff310299339cee1e60b490d84a6d326ae40e13e62384a2e51b7d499990420aeec3e9f4d15e3832ce073c7aa41b28071b44fa2837c1c4a3149d13ade23fbfdc0fe01d1ed5050bde8699296855866f450bb52ffe6cfa539c64e209ea9f639add97f43949e128f7c75143d74d2d16a89e19b30b4d2c12c8843277c455fa481f3fd2fcf38c2f5c818bac0528b979e0cdda938ae3b83c703d3d2a5407b31eff60266bae6085d373583	2026-11-25 02:00:24.976773+00
8c30ee63-f5dd-4b6c-8299-7a8e0e5041ce	3	3	\\x4a53454701fe91e3ff7f9043fe3b29a2628981f17531048f724ed351fa5a255dba1476429962dc7808c96977556138b895710aa154879afc94610174197a9f0ead8c287b7c645bd6366f70d2c07b695346c54a399b532b81a32339b36f57077de339d94e8f09f225096bda9e72dc04959a8b3e8e46512ebc947160b28de250305a4e3cc054e36c1c34f16bbf0b32476e749ed7b9b5037efe43a874e08d116ecae6ead87672f5b2ce1dcbdfb4a32b13cac4d854cfb8e1ad8e93a2827c86e1f5	2026-11-25 02:00:25.184648+00
5a14b97b-37a1-4c8a-b4b1-b82047a28a1b	3	5	\\x4a53454701dea6c7400581c927fd857b41686ce3c925824454991b60f38a8bb3310f1cde700ef97e36add6dc82b707f41629ef588fee50433f71e072586fd57b1f1ca3d9d314e2cb5b329699b636b2d6660b50a2f1dad665a040299022ccc8d0933189d4730789b60fabf58c934b8b40505c530cefd6b11929842b274a9669c6268d89c5f8b3a04fd6a14dc5e61e184c2527034d25a8692621ffd846da8dc9a21ce6266be893ed44a158d9f1a1940daa3ec93713bb2d928927c703029deb	2026-11-25 02:00:25.30191+00
\.


--
-- Name: hub hub_pkey; Type: CONSTRAINT; Schema: journal_hub; Owner: -
--

ALTER TABLE ONLY journal_hub.hub
    ADD CONSTRAINT hub_pkey PRIMARY KEY (singleton);


--
-- Name: schema_version schema_version_pkey; Type: CONSTRAINT; Schema: journal_hub; Owner: -
--

ALTER TABLE ONLY journal_hub.schema_version
    ADD CONSTRAINT schema_version_pkey PRIMARY KEY (singleton);


--
-- Name: segments segments_pkey; Type: CONSTRAINT; Schema: journal_hub; Owner: -
--

ALTER TABLE ONLY journal_hub.segments
    ADD CONSTRAINT segments_pkey PRIMARY KEY (device, first_position, last_position);


--
-- Name: hub hub_is_fixed; Type: TRIGGER; Schema: journal_hub; Owner: -
--

CREATE TRIGGER hub_is_fixed BEFORE DELETE OR UPDATE ON journal_hub.hub FOR EACH ROW EXECUTE FUNCTION journal_hub.refuse_change();


--
-- Name: hub hub_is_never_truncated; Type: TRIGGER; Schema: journal_hub; Owner: -
--

CREATE TRIGGER hub_is_never_truncated BEFORE TRUNCATE ON journal_hub.hub FOR EACH STATEMENT EXECUTE FUNCTION journal_hub.refuse_change();


--
-- Name: segments segments_are_append_only; Type: TRIGGER; Schema: journal_hub; Owner: -
--

CREATE TRIGGER segments_are_append_only BEFORE DELETE OR UPDATE ON journal_hub.segments FOR EACH ROW EXECUTE FUNCTION journal_hub.refuse_change();


--
-- Name: segments segments_are_never_truncated; Type: TRIGGER; Schema: journal_hub; Owner: -
--

CREATE TRIGGER segments_are_never_truncated BEFORE TRUNCATE ON journal_hub.segments FOR EACH STATEMENT EXECUTE FUNCTION journal_hub.refuse_change();


--
-- Name: segments segments_ring; Type: TRIGGER; Schema: journal_hub; Owner: -
--

CREATE TRIGGER segments_ring AFTER INSERT ON journal_hub.segments FOR EACH ROW EXECUTE FUNCTION journal_hub.ring();


--
-- PostgreSQL database dump complete
--

\unrestrict RoDftfpzAihUZLGRActMMdzobXnHTKGVevTpCRP2YEsvjG0QUAonWmNVwU70sMO

