import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var e=class extends Error{code;constructor(r,o){super(o),this.name="EchoesError",this.code=r}};export{e as a};
