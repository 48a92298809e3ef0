// Server ids: a type prefix and a ULID (the spec's "Identifiers"). One list for the server and the
// mock, so both make the same kinds of id.

/** Every server id's prefix: `acc_`, `ord_`, `shp_`, `ret_`, `dsp_`, `whs_`, `evt_`, `whd_`, `whr_`, `key_`. */
export type IdPrefix = "acc" | "ord" | "shp" | "ret" | "dsp" | "whs" | "evt" | "whd" | "whr" | "key";
