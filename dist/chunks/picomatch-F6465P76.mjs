import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a}from"./chunk-AWU5EDAA.mjs";import"./chunk-ZC56W3P3.mjs";export default a();
