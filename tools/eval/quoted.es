Me gustaría reservar una mesa para dos personas mañana por la noche.
La entrada cuesta 90 euros.
La ciudad tiene doce millones de habitantes.
Llevan sesenta años casados.
María vive en Madrid.
Verano
Envía el formulario a info@example.com o visita https://www.example.com/forms.
¡Gracias por tu ayuda! 😊
El autobús volvió a llegar tarde esta mañana, así que fui andando al trabajo.
Unos investigadores descubrieron una nueva especie de rana en la selva tropical.
La empresa anunció que contratará a 300 nuevos empleados el año que viene.
Reinicie el equipo después de instalar la actualización.
