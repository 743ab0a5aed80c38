"""Reading what users hand in: many deals at once (numbers, codes, card lists, files), and
JSON read and written strictly. Above the model, which it reads into."""
