import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a}from"./chunk-ZWEXCI4D.mjs";import"./chunk-3DZYJ4XR.mjs";import"./chunk-QTB2SJJ2.mjs";import"./chunk-SWUG7IT7.mjs";import"./chunk-ZVCJZRU7.mjs";import"./chunk-3J7ZULVE.mjs";import"./chunk-ZC56W3P3.mjs";export{a as touchSession};
